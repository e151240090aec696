import type { TokenUsage } from '../billing/price.js';
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from '../canonical/types.js';
import type { EndpointConfig } from '../config/schema.js';
import type { GatewayError } from '../errors/gateway-error.js';

export interface UpstreamHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Per-request decoder of an upstream stream (SSE, JSON lines or AWS event-stream) into canonical events. */
export interface StreamDecoder {
  /** Feeds raw upstream bytes (any split); returns the events completed so far. */
  push(chunk: Buffer): CanonicalStreamEvent[];
  /** The upstream closed: trailing events. Throws a GatewayError if the stream was cut short. */
  end(): CanonicalStreamEvent[];
}

export interface BuildContext {
  env: NodeJS.ProcessEnv;
  /** Output cap to send upstream (the request's, or the catalog maximum). */
  maxTokens: number;
  /** Request time, for signatures (SigV4). */
  now: Date;
  /** Cloud-storage buckets (`s3://b`, `gs://b`) the organization may name in image URLs (storage-urls.ts); absent = none. */
  storageBuckets?: readonly string[];
}

/**
 * A provider adapter: how to call one upstream API. Small on purpose; what a provider cannot do is data
 * (`capabilities`), never a stub method.
 */
export interface ProviderAdapter {
  readonly name: string;
  readonly capabilities: {
    /** Accepts an OpenAI chat-completions body as is (byte passthrough possible). */
    chatPassthrough: boolean;
    /** On the chat passthrough: answers `logprobs` / `top_logprobs` (absent = no). */
    logprobs?: boolean;
    /** On the chat passthrough: answers `n > 1` choices (absent = no). */
    choices?: boolean;
  };
  /** URL and headers (auth included) for an OpenAI-format chat call (only when chatPassthrough). */
  chatRequest(ep: EndpointConfig, env: NodeJS.ProcessEnv): { url: string; headers: Record<string, string> };
  /** Usage from a parsed `usage` object of a passthrough chat response or final stream chunk. */
  usage(u: Record<string, unknown>): TokenUsage;

  /** Canonical path: the upstream request for a canonical request (stream per `req.stream`). */
  buildRequest(req: CanonicalRequest, ep: EndpointConfig, ctx: BuildContext): UpstreamHttpRequest;
  /** Canonical path: a whole (non-stream) upstream body. Throws GatewayError when unparseable. */
  parseResponse(body: Buffer): CanonicalResponse;
  streamDecoder(): StreamDecoder;

  /** May the gateway fail over after this upstream status? (429, 503, 529 only, per the contract.) */
  mayFailOver(status: number): boolean;
  /** The contract error for an upstream error response; never echoes credentials. */
  mapError(status: number, body: string): GatewayError;
}
