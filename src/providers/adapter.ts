import type { TokenUsage } from '../billing/price.js';
import type { EndpointConfig } from '../config/schema.js';
import type { GatewayError } from '../errors/gateway-error.js';

/**
 * A provider adapter: how to call one upstream API. Small on purpose; what a provider cannot do is data
 * (`capabilities`), never a stub method.
 */
export interface ProviderAdapter {
  readonly name: string;
  readonly capabilities: {
    /** Accepts an OpenAI chat-completions body as is (byte passthrough possible). */
    chatPassthrough: boolean;
  };
  /** URL and headers (auth included) for a chat-completions call to this endpoint. */
  chatRequest(ep: EndpointConfig, env: NodeJS.ProcessEnv): { url: string; headers: Record<string, string> };
  /** Usage from a parsed `usage` object of this provider's chat response or final stream chunk. */
  usage(u: Record<string, unknown>): TokenUsage;
  /** May the gateway fail over after this upstream status? (429, 503, 529 only, per the contract.) */
  mayFailOver(status: number): boolean;
  /** The contract error for an upstream error response; never echoes credentials. */
  mapError(status: number, body: string): GatewayError;
}

export interface UpstreamHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}
