/**
 * The AWS Bedrock Runtime adapter: Converse (POST {baseUrl}/model/{modelId}/converse) and ConverseStream
 * (.../converse-stream, an application/vnd.amazon.eventstream body), SigV4-signed for service `bedrock`.
 * The base URL is the runtime endpoint, e.g. https://bedrock-runtime.us-east-1.amazonaws.com.
 */
import { checkStorageUrls } from '../storage-urls.js';
import type { TokenUsage } from '../../billing/price.js';
import type { EndpointConfig } from '../../config/schema.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter } from '../adapter.js';
import { awsCredentials, awsRegion } from './auth.js';
import { bedrockMayFailOver, mapBedrockError } from './errors.js';
import { toConverseRequest } from './request.js';
import { fromBedrockUsage, fromConverseResponse } from './response.js';
import { signRequest } from './sigv4.js';
import { BedrockStreamDecoder } from './stream.js';

export const BEDROCK_SERVICE = 'bedrock';

/** Model ids contain `:` (`anthropic.claude-3-5-haiku-20241022-v1:0`) and ARNs `/`: encoded as one segment. */
export function converseUrl(ep: EndpointConfig, stream: boolean): string {
  return `${ep.baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(ep.upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`;
}

export const bedrockAdapter: ProviderAdapter = {
  name: 'bedrock',
  capabilities: { chatPassthrough: false },
  chatRequest() {
    throw new GatewayError('internal_error', { message: 'The bedrock adapter has no chat-completions passthrough.' });
  },
  usage: (u: Record<string, unknown>): TokenUsage => fromBedrockUsage(u),
  buildRequest(req, ep, ctx) {
    checkStorageUrls(req, ctx.storageBuckets ?? []);
    const url = converseUrl(ep, req.stream);
    const body = JSON.stringify(toConverseRequest(req, ep.upstreamModel, ctx.maxTokens));
    const headers = signRequest({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        accept: req.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      },
      body,
      credentials: awsCredentials(ep, ctx.env),
      region: awsRegion(ep, ctx.env),
      service: BEDROCK_SERVICE,
      now: ctx.now,
    });
    return { url, headers, body };
  },
  parseResponse: fromConverseResponse,
  streamDecoder: () => new BedrockStreamDecoder(),
  mayFailOver: bedrockMayFailOver,
  mapError: mapBedrockError,
};
