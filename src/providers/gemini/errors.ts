/**
 * Google API error bodies (Gemini API and Vertex AI): `{error: {code, message, status, details}}` with the
 * gRPC status name (INVALID_ARGUMENT, PERMISSION_DENIED, NOT_FOUND, RESOURCE_EXHAUSTED, INTERNAL,
 * UNAVAILABLE...). A bad Gemini API key is a 400 INVALID_ARGUMENT with `reason: API_KEY_INVALID`: that is
 * our credential failing, so it maps like a 401, without the upstream text.
 */
import type { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamStatus, scrubSecrets } from '../openai/errors.js';
import { arr, isRec, rec, str } from '../openai/wire.js';

const CREDENTIAL_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED', 'API_KEY_SERVICE_BLOCKED', 'ACCESS_TOKEN_EXPIRED']);

/** The scrubbed `error.message` of a parsed Google error object. */
export function googleErrorMessage(parsed: Record<string, unknown>): string {
  return scrubSecrets(str(rec(parsed.error).message) ?? '').slice(0, 500);
}

function parse(body: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(body);
    // Some Google front ends answer a stream request's error as a one-element JSON array.
    return rec(Array.isArray(v) ? v[0] : v);
  } catch {
    return {};
  }
}

function credentialRefused(error: Record<string, unknown>): boolean {
  const reasons = arr(error.details).map((d) => str(rec(d).reason));
  if (reasons.some((r) => r !== undefined && CREDENTIAL_REASONS.has(r))) return true;
  return error.status === 'UNAUTHENTICATED' || /API key not valid/i.test(str(error.message) ?? '');
}

export function mapGoogleError(status: number, body: string): GatewayError {
  const parsed = parse(body);
  const error = isRec(parsed.error) ? parsed.error : {};
  return mapUpstreamStatus(status, googleErrorMessage(parsed), credentialRefused(error));
}
