/**
 * Mistral error responses. The API answers `{object:'error', message, type, param, code}` (message a
 * string; for 422 validation errors `{detail: [pydantic items]}`), its gateway answers a bad key with
 * `{detail: 'Unauthorized'}` (reported in agent0ai/agent-zero#539, nextcloud/integration_openai#332).
 */
import { randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';

export function mistralError(
  status: number,
  message: unknown,
  type: string,
  code: string | null = null,
  headers: Record<string, string> = {},
): JsonReply {
  return {
    status,
    headers: { 'x-kong-request-id': randomBytes(16).toString('hex'), ...headers },
    body: { object: 'error', message, type, param: null, code },
  };
}

export interface ValidationItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

/** A pydantic 422 (`extra_forbidden`, `missing`...), as Mistral wraps it. */
export function validationError(items: ValidationItem[]): JsonReply {
  return mistralError(422, { detail: items }, 'invalid_request_error');
}

export function unauthorized(): JsonReply {
  return { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: { detail: 'Unauthorized' } };
}

/** `Authorization: Bearer <key>`; checked only when the endpoint sets `apiKey`. */
export function checkMistralKey(request: SimRequest): JsonReply | null {
  const expected = request.config.apiKey;
  if (expected === null) return null;
  const key = /^Bearer\s+(.+)$/i.exec(request.req.headers.authorization?.trim() ?? '')?.[1];
  return key === expected ? null : unauthorized();
}

export function mistralFaultError(kind: StatusFault, request: SimRequest): JsonReply {
  switch (kind) {
    case '400':
      return mistralError(
        400,
        'Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length',
        'invalid_request_message_error',
        '3051',
      );
    case '401':
      return unauthorized();
    case '429':
      return mistralError(429, 'Requests rate limit exceeded', 'rate_limited', '1300', { 'retry-after': String(request.config.retryAfterS) });
    case '500':
      return mistralError(500, 'Internal server error', 'internal_server_error');
    case '503':
      return mistralError(503, 'Service tier capacity exceeded for this model.', 'service_tier_capacity_exceeded', '3505');
    case '529':
      // Mistral has no 529; its capacity body under the status the fault asks for.
      return mistralError(529, 'Service tier capacity exceeded for this model.', 'service_tier_capacity_exceeded', '3505');
  }
}
