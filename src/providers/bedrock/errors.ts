/**
 * Bedrock Runtime errors -> the contract's catalog. An error response is `{"message": "..."}` with the
 * exception name in the `x-amzn-ErrorType` header; the status alone tells them apart well enough
 * (API reference, Converse "Errors"): 400 ValidationException, 403 AccessDeniedException (and the
 * signature/credential refusals), 404 ResourceNotFoundException, 408 ModelTimeoutException,
 * 424 ModelErrorException, 429 ThrottlingException / ModelNotReadyException, 500 InternalServerException,
 * 503 ServiceUnavailableException. Inside a ConverseStream the same exceptions arrive as frames with
 * `:message-type: exception` and `:exception-type: throttlingException` (lower camel case).
 */
import { clientDetail } from '../error-detail.js';
import type { ErrorName } from '../../errors/codes.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, str } from './response.js';

/** Throttling and an unavailable service may be served elsewhere; a 500 is not retried on another endpoint. */
const FAILOVER = new Set([429, 503, 529]);

export function bedrockMayFailOver(status: number): boolean {
  return FAILOVER.has(status);
}

/** AWS access key ids, Anthropic-style keys, and any long opaque run (secret keys, session tokens). */
export function scrubCredentials(text: string): string {
  return text
    .replace(/\b(AKIA|ASIA|sk|key)[-_A-Za-z0-9]{8,}/g, '[redacted]')
    .replace(/[A-Za-z0-9+/=_-]{32,}/g, '[redacted]')
    .slice(0, 500);
}

function messageOf(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isRecord(parsed)) return '';
    return str(parsed.message) || str(parsed.Message);
  } catch {
    return '';
  }
}

function byStatus(status: number): ErrorName {
  if (status === 400 || status === 404 || status === 422) return 'invalid_request';
  if (status === 401 || status === 403) return 'upstream_error';
  if (status === 408) return 'upstream_timeout';
  if (status === 424) return 'upstream_error';
  if (status === 429) return 'rate_limit_exceeded';
  return 'service_unavailable';
}

const BY_EXCEPTION: Readonly<Record<string, ErrorName>> = {
  validationException: 'invalid_request',
  throttlingException: 'rate_limit_exceeded',
  serviceUnavailableException: 'service_unavailable',
  internalServerException: 'service_unavailable',
  modelStreamErrorException: 'upstream_error',
  modelTimeoutException: 'upstream_timeout',
};

const PREFIX: Readonly<Partial<Record<ErrorName, string>>> = {
  invalid_request: 'The provider rejected the request',
  rate_limit_exceeded: 'The provider is rate limiting',
  upstream_timeout: 'The provider timed out',
  service_unavailable: 'The provider is unavailable',
  upstream_error: 'The model failed',
};

function toGatewayError(name: ErrorName, message: string, credential: boolean, headers: Record<string, string>): GatewayError {
  // A refused signature or credential is the gateway's configuration: no 401/403 and no upstream text.
  if (credential) return new GatewayError('upstream_error', { message: 'The provider refused the gateway credentials.', headers });
  const detail = clientDetail(name, scrubCredentials(message));
  const base = PREFIX[name] ?? 'The provider failed';
  return new GatewayError(name, { message: detail ? `${base}: ${detail}` : base, headers });
}

export function mapBedrockError(status: number, body: string): GatewayError {
  const name = byStatus(status);
  return toGatewayError(name, messageOf(body), status === 401 || status === 403, { 'x-svc-upstream-status': String(status) });
}

/** An exception frame of a ConverseStream (`:exception-type` header, `{message}` payload). */
export function mapBedrockStreamException(exceptionType: string, payload: string): GatewayError {
  const name = BY_EXCEPTION[exceptionType] ?? 'service_unavailable';
  return toGatewayError(name, messageOf(payload), false, { 'x-svc-upstream-error': exceptionType || 'unknown' });
}
