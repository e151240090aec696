/**
 * The contract between the provider-neutral server and one provider's wire format. A dialect is one folder
 * (`src/sim/openai/`, later `anthropic/`, `gemini/`...) exporting a `Dialect`; `dialects.ts` lists them.
 * The server owns routing by path suffix, stats, latency and the transport faults (reset, hang,
 * slow-first-byte); a dialect owns validation, auth, the answer and its own error bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestControls, StatusFault } from './faults.js';
import type { JsonReply } from './http.js';
import type { EndpointConfig } from './types.js';

export interface SimRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Normalized endpoint prefix ('/' or '/ep-a'). */
  readonly prefix: string;
  /** Named groups of the route pattern (e.g. a model id in the path). */
  readonly params: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  readonly json: unknown;
  /** The endpoint config with this request's `x-sim-*` overrides applied. */
  readonly config: Readonly<EndpointConfig>;
  readonly controls: Readonly<RequestControls>;
  /** True for `midstream-reset`: send a few frames (or half a body), then destroy the socket. */
  readonly cut: boolean;
  /** Aborts when the client goes away or the simulator closes. */
  readonly signal: AbortSignal;
}

export interface SimRoute {
  readonly method: 'GET' | 'POST';
  /** Anchored at the end of the path (`/\/v1\/chat\/completions$/`); what precedes the match is the prefix. */
  readonly pattern: RegExp;
  /** The model the request names, for per-model stats; defaults to a string `model` in the JSON body. */
  model?(params: Readonly<Record<string, string>>, json: unknown): string | undefined;
  handle(request: SimRequest): Promise<void>;
}

export interface Dialect {
  readonly name: string;
  readonly routes: readonly SimRoute[];
  /** The provider's real error response for an injected status fault. */
  faultError(kind: StatusFault, request: SimRequest): JsonReply;
}
