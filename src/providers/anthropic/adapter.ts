/**
 * The Anthropic Messages API adapter (POST {baseUrl}/messages). Never a chat-completions passthrough:
 * every call goes through the canonical model.
 */
import type { TokenUsage } from '../../billing/price.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter } from '../adapter.js';
import { anthropicHeaders, messagesUrl } from './auth.js';
import { anthropicMayFailOver, mapAnthropicError } from './errors.js';
import { toAnthropicRequest } from './request.js';
import { fromAnthropicResponse, fromAnthropicUsage } from './response.js';
import { AnthropicStreamDecoder } from './stream.js';

export const anthropicAdapter: ProviderAdapter = {
  name: 'anthropic',
  capabilities: { chatPassthrough: false },
  chatRequest() {
    throw new GatewayError('internal_error', { message: 'The anthropic adapter has no chat-completions passthrough.' });
  },
  usage: (u: Record<string, unknown>): TokenUsage => fromAnthropicUsage(u),
  buildRequest(req, ep, ctx) {
    const body = toAnthropicRequest(req, ep.upstreamModel, ctx.maxTokens);
    return {
      url: messagesUrl(ep),
      headers: anthropicHeaders(ep, ctx.env, req.extensions.anthropic?.betas),
      body: JSON.stringify(body),
    };
  },
  parseResponse: fromAnthropicResponse,
  streamDecoder: () => new AnthropicStreamDecoder(),
  mayFailOver: anthropicMayFailOver,
  mapError: mapAnthropicError,
};
