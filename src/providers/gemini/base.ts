/**
 * One adapter for Google's generateContent family: the Gemini API and Vertex AI take the same body and
 * answer with the same response, stream and error shapes, and differ only in URL and authentication.
 */
import type { EndpointConfig } from '../../config/schema.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter } from '../adapter.js';
import { FAILOVER_STATUSES } from '../openai/base.js';
import { checkStorageUrls } from '../storage-urls.js';
import { mapGoogleError } from './errors.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';
import { GeminiStreamDecoder } from './stream.js';
import { fromGeminiUsage } from './usage.js';

export interface GoogleEnvelope {
  /** `...models/{model}` without the method; `:generateContent` or `:streamGenerateContent?alt=sse` is appended. */
  modelUrl(ep: EndpointConfig): string;
  auth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string>;
}

export function googleAdapter(name: string, envelope: GoogleEnvelope): ProviderAdapter {
  return {
    name,
    capabilities: { chatPassthrough: false },
    chatRequest() {
      // The chain offers only chatPassthrough adapters to the byte path; reaching here is a wiring bug.
      throw new GatewayError('internal_error', { message: `${name} does not take chat-completions bodies.` });
    },
    usage: fromGeminiUsage,
    buildRequest(req, ep, ctx) {
      // Vertex reads gs:// URIs with the operator's service account (finding 5).
      checkStorageUrls(req, ctx.storageBuckets ?? []);
      const method = req.stream ? ':streamGenerateContent?alt=sse' : ':generateContent';
      const headers: Record<string, string> = { 'content-type': 'application/json', ...envelope.auth(ep, ctx.env) };
      if (req.stream) headers.accept = 'text/event-stream';
      return { url: `${envelope.modelUrl(ep)}${method}`, headers, body: JSON.stringify(toGeminiRequest(req, ctx.maxTokens)) };
    },
    parseResponse: (body) => fromGeminiResponse(body, name),
    streamDecoder: () => new GeminiStreamDecoder(name),
    mayFailOver: (status) => FAILOVER_STATUSES.has(status),
    mapError: mapGoogleError,
  };
}
