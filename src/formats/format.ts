import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent, JsonObject } from '../canonical/types.js';
import type { GatewayError } from '../errors/gateway-error.js';

export type FormatName = 'chat' | 'completions' | 'responses' | 'messages';

export interface EncodeContext {
  /** The `model` to report in the body (the requested id; `svc/auto` for the smart router). */
  model: string;
  /** Gateway request id (ids of generated objects may derive from it). */
  requestId: string;
  /** Unix seconds. */
  created: number;
  /** The client asked for usage in the stream (chat: stream_options.include_usage). */
  streamUsage: boolean;
  /**
   * The gateway's exact count of the prompt (messages streams only): `message_start` must carry input
   * tokens (LangChain reads them only there), and an upstream that reports usage last has not said yet.
   */
  promptTokens?: number;
  /** Responses format: receives the finished response object (JSON or the stream's terminal event) to store. */
  onResponse?: (response: JsonObject) => void;
}

/** Per-request encoder of canonical stream events into the client's SSE bytes. */
export interface StreamEncoder {
  push(ev: CanonicalStreamEvent): string;
  /** Closing bytes after the last event (`data: [DONE]`, `event: message_stop`, ...). */
  end(): string;
  /** Bytes that report a failure after the stream started. */
  error(err: GatewayError): string;
}

/** A client wire format: decode into the canonical model, encode out of it. Formats never name providers. */
export interface ClientFormat {
  readonly name: FormatName;
  /** Validates against the contract's field table and decodes. Throws GatewayError (400) on bad input. */
  decode(body: Record<string, unknown>): CanonicalRequest;
  encodeResponse(res: CanonicalResponse, ctx: EncodeContext): JsonObject;
  streamEncoder(ctx: EncodeContext): StreamEncoder;
}
