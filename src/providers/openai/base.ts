/**
 * One adapter for the whole chat-completions family: a provider is a parameter table (`ChatParams`), an
 * envelope (URL and auth) and an error map. OpenAI, Azure OpenAI, Mistral and OpenAI-compatible servers
 * are rows of this, so a fix to the shared request/response/stream code reaches all of them.
 */
import type { EndpointConfig } from '../../config/schema.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter } from '../adapter.js';
import type { ChatParams } from './params.js';
import { toChatRequest } from './request.js';
import { fromChatResponse } from './response.js';
import { OpenAIStreamDecoder } from './stream.js';

/** Failover classes of the contract (svc_fallbacks rule): 429, 503, 529. */
export const FAILOVER_STATUSES: ReadonlySet<number> = new Set([429, 503, 529]);

export interface ChatEnvelope {
  /** The chat-completions URL of this endpoint. */
  url(ep: EndpointConfig): string;
  /** Authentication headers (empty when the endpoint has no credential). */
  auth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string>;
}

export interface ChatAdapterSpec {
  name: string;
  /** Accepts a client's chat-completions body byte for byte (the gateway's fast path). */
  passthrough: boolean;
  params: ChatParams;
  envelope: ChatEnvelope;
  mapError(status: number, body: string): GatewayError;
}

export function chatAdapter(spec: ChatAdapterSpec): ProviderAdapter {
  const { params, envelope } = spec;
  const target = (ep: EndpointConfig, env: NodeJS.ProcessEnv): { url: string; headers: Record<string, string> } => ({
    url: envelope.url(ep),
    headers: { 'content-type': 'application/json', ...envelope.auth(ep, env) },
  });
  return {
    name: spec.name,
    capabilities: { chatPassthrough: spec.passthrough, logprobs: params.accepts.openaiExtensions, choices: params.accepts.n },
    chatRequest: target,
    usage: params.usage,
    buildRequest(req, ep, ctx) {
      const { url, headers } = target(ep, ctx.env);
      const body = toChatRequest(req, ep.upstreamModel, ctx.maxTokens, params);
      // target() made a fresh object: adding to it keeps one hidden class (a field added to a spread made one per call).
      if (req.stream) headers.accept = 'text/event-stream';
      return { url, headers, body: JSON.stringify(body) };
    },
    parseResponse: (body) => fromChatResponse(body, params),
    streamDecoder: () => new OpenAIStreamDecoder(params),
    mayFailOver: (status) => FAILOVER_STATUSES.has(status),
    mapError: spec.mapError,
  };
}

/** `{baseUrl}/chat/completions`, the OpenAI path every compatible server copies. */
export function chatCompletionsUrl(ep: EndpointConfig): string {
  return `${ep.baseUrl.replace(/\/+$/, '')}/chat/completions`;
}
