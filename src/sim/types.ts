/** Public types of the provider simulator (re-exported by `server.ts`). */
import type { FaultKind } from './faults.js';

/** Behaviour of one endpoint, i.e. one path prefix standing in for one upstream deployment. */
export interface EndpointConfig {
  /** Delay before the response headers, in ms, on every request (`slow-first-byte` uses 5000 when 0). */
  firstByteMs: number;
  /** Delay before each streamed token chunk; a non-stream answer waits msPerToken x completion tokens. */
  msPerToken: number;
  /** Fault injected into the next `faultCount` requests; null = healthy. */
  fault: FaultKind | null;
  /** How many next requests get `fault`; -1 = every request. Setting `fault` alone means -1. */
  faultCount: number;
  /** When set, the dialect's auth check demands this key (OpenAI: `Authorization: Bearer <apiKey>`). */
  apiKey: string | null;
  /** `retry-after` seconds sent with an injected 429. */
  retryAfterS: number;
  /**
   * When set, a dialect that authenticates with AWS Signature V4 verifies every request's signature
   * against these credentials (the session token, when given, must be sent as x-amz-security-token).
   */
  sigv4?: SigV4Credentials | null;
}

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Config applied to every endpoint that has not been configured; `reset()` returns to it. */
export type SimDefaults = Partial<EndpointConfig>;

export interface EndpointStats {
  /** Requests that reached a provider route under this prefix, faulted ones included. */
  requests: number;
  byModel: Record<string, number>;
  /** Faults injected, by kind. */
  faults: Partial<Record<FaultKind, number>>;
  lastPath: string | null;
  /** Last request body: parsed JSON, the raw text when it was not JSON, null when empty. */
  lastBody: unknown;
  /** Last request headers, lower-case names, repeated headers joined with ", ". */
  lastHeaders: Record<string, string>;
  /** The last 16 response bodies as sent (each its first 256 KiB), oldest first: the usage the sim reported. */
  recentResponses: string[];
}

export interface SimStats {
  /** Requests over all endpoints. */
  requests: number;
  /** By normalized prefix: '/' for none, '/ep-a' for `/ep-a/v1/...`. */
  endpoints: Record<string, EndpointStats>;
}

export interface SimOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  defaults?: SimDefaults;
}

export interface Simulator {
  port: number;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 (append a prefix and `/v1`). */
  url: string;
  close(): Promise<void>;
  stats(): SimStats;
  /** Forget all stats and per-endpoint config (back to the start defaults). */
  reset(): void;
  /** Merge `cfg` into the endpoint's config; prefix '' or '/' is the root endpoint. */
  configure(prefix: string, cfg: Partial<EndpointConfig>): void;
}
