/**
 * Anthropic's error responses: `{type: 'error', error: {type, message}, request_id}` with a `request-id`
 * header (API reference, "Errors"). Types by status: 400 invalid_request_error, 401 authentication_error,
 * 403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error, 500 api_error,
 * 529 overloaded_error.
 */
import { randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';

export function requestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

export function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}): JsonReply {
  const id = requestId();
  return { status, headers: { 'request-id': id, ...headers }, body: { type: 'error', error: { type, message }, request_id: id } };
}

export function invalidRequest(message: string): JsonReply {
  return anthropicError(400, 'invalid_request_error', message);
}

function header(request: SimRequest, name: string): string | undefined {
  const value = request.req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The key must equal the endpoint's key when one is configured. It may come as `x-api-key` (API version
 * 2023-06-01 clients, the gateway adapter) or as `Authorization: Bearer` (what the official SDK v1 sends).
 * `anthropic-version` is always required, as on the real API.
 */
export function checkHeaders(request: SimRequest): JsonReply | null {
  const expected = request.config.apiKey;
  if (expected !== null) {
    const apiKey = header(request, 'x-api-key');
    const bearer = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization')?.trim() ?? '')?.[1];
    if (apiKey === undefined && bearer === undefined) return anthropicError(401, 'authentication_error', 'x-api-key header is required');
    if (apiKey !== undefined && apiKey !== expected) return anthropicError(401, 'authentication_error', 'invalid x-api-key');
    if (apiKey === undefined && bearer !== expected) return anthropicError(401, 'authentication_error', 'Invalid bearer token');
  }
  if (header(request, 'anthropic-version') === undefined) return invalidRequest('anthropic-version: header is required');
  return null;
}

export function anthropicFaultError(kind: StatusFault, request: SimRequest): JsonReply {
  switch (kind) {
    case '400':
      return invalidRequest('prompt is too long: 208934 tokens > 200000 maximum');
    case '401':
      return anthropicError(401, 'authentication_error', 'invalid x-api-key');
    case '429': {
      const seconds = String(request.config.retryAfterS);
      return anthropicError(
        429,
        'rate_limit_error',
        'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
        {
          'retry-after': seconds,
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '0',
          'anthropic-ratelimit-requests-reset': new Date(Date.now() + Number(seconds) * 1000).toISOString(),
        },
      );
    }
    case '500':
      return anthropicError(500, 'api_error', 'Internal server error');
    case '503':
      // Not in Anthropic's documented list; seen from its edge as a plain api_error with status 503.
      return anthropicError(503, 'api_error', 'Service Unavailable');
    case '529':
      return anthropicError(529, 'overloaded_error', 'Overloaded');
  }
}
