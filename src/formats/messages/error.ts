import type { GatewayError } from '../../errors/gateway-error.js';

export type MessagesErrorBody = {
  type: 'error';
  /** The contract's error object, unchanged, plus `details.error_code` (the SDK's `errorCode`). */
  error: { message: string; type: string; code?: string; param?: string; details?: { error_code: string } };
  /** The readable text the SDK puts in `err.message` (see below). */
  message: string;
};

/**
 * The contract's error object in the messages envelope, readable by the official Anthropic SDK
 * (node_modules/@anthropic-ai/sdk/core/error.js): `APIError` takes `type` and `apiMessage` from `error.type` /
 * `error.message`, `errorCode` from `error.details.error_code`, and builds `err.message` from a top-level
 * `message` string, falling back to the whole body as JSON text. Anthropic's own envelope (`type: "error"`)
 * carries no top-level message, so its errors read as raw JSON; ours adds one. Used for plain responses and
 * for the stream's `error` event alike.
 */
export function toMessagesError(err: GatewayError): MessagesErrorBody {
  const { error } = err.toBody();
  // Named field by field: a field added to a spread (`{ ...error, details }`) made a new hidden class per error.
  let out: MessagesErrorBody['error'] = error;
  if (error.code !== undefined) {
    out = { message: error.message, type: error.type, code: error.code };
    if (error.param !== undefined) out.param = error.param;
    out.details = { error_code: error.code };
  }
  return { type: 'error', error: out, message: error.message };
}

/** Whether a route path answers in the messages envelope (`/v1/messages`, `/v1/messages/count_tokens`). */
export function isMessagesRoute(path: string): boolean {
  return path === '/v1/messages' || path.startsWith('/v1/messages/');
}
