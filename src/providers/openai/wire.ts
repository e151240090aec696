/**
 * Small readers for untrusted upstream JSON, shared by every provider decoder: a wrong type reads as
 * absent instead of throwing, so one odd field never sinks a whole answer.
 */
import { GatewayError } from '../../errors/gateway-error.js';

export type Rec = Record<string, unknown>;

export function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function rec(v: unknown): Rec {
  return isRec(v) ? v : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A whole upstream body as a JSON object; an unparseable body is the provider's failure (503 service_unavailable). */
export function parseUpstreamJson(body: Buffer | string, provider: string): Rec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!isRec(parsed)) {
    throw new GatewayError('upstream_error', { message: `${provider}: the provider sent a body that is not a JSON object.` });
  }
  return parsed;
}

/** A stream that closed before its protocol said it was complete. */
export function truncatedStream(provider: string): GatewayError {
  return new GatewayError('upstream_error', { message: `${provider}: the provider stream ended before it finished.` });
}
