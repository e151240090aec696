/**
 * Anthropic errors -> the contract's catalog. The API answers `{type: 'error', error: {type, message}}`
 * with the HTTP statuses of its "Errors" page: 400 invalid_request_error, 401 authentication_error,
 * 402 billing_error, 403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error,
 * 500 api_error, 504 timeout_error, 529 overloaded_error. A stream can also end in an `error` event with
 * the same object (e.g. overloaded_error after the 200 status line).
 */
import { clientDetail } from '../error-detail.js';
import type { ErrorName } from '../../errors/codes.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, str } from './response.js';

/** Statuses after which another endpoint may be tried (the contract: 429, 503, 529). */
const FAILOVER = new Set([429, 503, 529]);

export function anthropicMayFailOver(status: number): boolean {
  return FAILOVER.has(status);
}

/**
 * Removes anything credential-like before upstream text reaches a client: API keys (`sk-ant-...`), and
 * any long opaque token run (keys of other shapes, session tokens).
 */
export function scrubCredentials(text: string): string {
  return text
    .replace(/\b(sk|key|AKIA|ASIA|AIza)[-_A-Za-z0-9]{8,}/g, '[redacted]')
    .replace(/[A-Za-z0-9+/=_-]{32,}/g, '[redacted]')
    .slice(0, 500);
}

interface UpstreamError {
  type: string;
  message: string;
}

/** `{type: 'error', error: {type, message}}`; tolerant of a bare `{error: ...}` or non-JSON bodies. */
export function parseErrorBody(body: string): UpstreamError {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : {};
    return { type: str(error.type), message: str(error.message) };
  } catch {
    return { type: '', message: '' };
  }
}

const BY_TYPE: Readonly<Record<string, ErrorName>> = {
  invalid_request_error: 'invalid_request',
  not_found_error: 'invalid_request',
  request_too_large: 'payload_too_large',
  rate_limit_error: 'rate_limit_exceeded',
  authentication_error: 'upstream_error',
  permission_error: 'upstream_error',
  billing_error: 'upstream_error',
  timeout_error: 'upstream_timeout',
  api_error: 'service_unavailable',
  overloaded_error: 'service_unavailable',
};

function byStatus(status: number): ErrorName {
  if (status === 400 || status === 404 || status === 422) return 'invalid_request';
  if (status === 413) return 'payload_too_large';
  if (status === 401 || status === 402 || status === 403) return 'upstream_error';
  if (status === 408 || status === 504) return 'upstream_timeout';
  if (status === 429) return 'rate_limit_exceeded';
  return 'service_unavailable';
}

const PREFIX: Readonly<Partial<Record<ErrorName, string>>> = {
  invalid_request: 'The provider rejected the request',
  payload_too_large: 'The provider refused the request size',
  rate_limit_exceeded: 'The provider is rate limiting',
  upstream_timeout: 'The provider timed out',
  service_unavailable: 'The provider is unavailable',
};

function toGatewayError(name: ErrorName, upstream: UpstreamError, headers: Record<string, string>): GatewayError {
  // A refused gateway credential is our problem, not the client's: no 401 and no upstream text.
  if (name === 'upstream_error') return new GatewayError(name, { message: 'The provider refused the gateway credentials.', headers });
  const detail = clientDetail(name, scrubCredentials(upstream.message));
  const base = PREFIX[name] ?? 'The provider failed';
  return new GatewayError(name, { message: detail ? `${base}: ${detail}` : base, headers });
}

/** An HTTP error response. */
export function mapAnthropicError(status: number, body: string): GatewayError {
  return toGatewayError(byStatus(status), parseErrorBody(body), { 'x-svc-upstream-status': String(status) });
}

/** An `error` event inside a stream (the status line already said 200): mapped by error type. */
export function mapAnthropicStreamError(data: string): GatewayError {
  const upstream = parseErrorBody(data);
  return toGatewayError(BY_TYPE[upstream.type] ?? 'service_unavailable', upstream, { 'x-svc-upstream-error': upstream.type || 'unknown' });
}
