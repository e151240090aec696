/**
 * OpenAI's error responses: `{ error: { message, type, param, code } }`. Messages, types and codes are the
 * ones the real API returns (see the API reference "Error codes" guide and SDK issue reports), so adapter
 * tests exercise the same parsing they will meet in production.
 */
import { randomBytes } from 'node:crypto';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';
import { isRecord } from '../http.js';
import type { SimRequest } from '../dialect.js';

export function openaiError(
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
  headers: Record<string, string> = {},
): JsonReply {
  const requestId = `req_${randomBytes(16).toString('hex')}`;
  return { status, headers: { 'x-request-id': requestId, ...headers }, body: { error: { message, type, param, code } } };
}

/** sk-abc...wxyz as OpenAI echoes a wrong key: the start and the last four characters, the rest masked. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 3)}${'*'.repeat(Math.min(key.length - 7, 40))}${key.slice(-4)}`;
}

export function invalidApiKey(key: string): JsonReply {
  return openaiError(
    401,
    `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    'invalid_request_error',
    null,
    'invalid_api_key',
  );
}

export function missingApiKey(): JsonReply {
  return openaiError(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    'invalid_request_error',
  );
}

function bearerKey(request: SimRequest): string | undefined {
  const header = request.req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** OpenAI authenticates with `Authorization: Bearer <key>`; checked only when the endpoint sets `apiKey`. */
export function checkBearer(request: SimRequest): JsonReply | null {
  const expected = request.config.apiKey;
  if (expected === null) return null;
  const key = bearerKey(request);
  if (key === undefined) return missingApiKey();
  return key === expected ? null : invalidApiKey(key);
}

function requestedModel(request: SimRequest): string {
  return isRecord(request.json) && typeof request.json.model === 'string' ? request.json.model : 'gpt-4o';
}

export function openaiFaultError(kind: StatusFault, request: SimRequest): JsonReply {
  switch (kind) {
    case '400':
      return openaiError(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
        'invalid_request_error',
        'messages',
        'context_length_exceeded',
      );
    case '401':
      return invalidApiKey(bearerKey(request) ?? 'sk-sim-missing');
    case '429': {
      const seconds = request.config.retryAfterS;
      return openaiError(
        429,
        `Rate limit reached for ${requestedModel(request)} in organization org-sim on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${seconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        'requests',
        null,
        'rate_limit_exceeded',
        {
          'retry-after': String(seconds),
          'x-ratelimit-limit-requests': '3',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': `${seconds}s`,
        },
      );
    }
    case '500':
      return openaiError(
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
      );
    case '503':
      return openaiError(503, 'The server is overloaded or not ready yet.', 'server_error');
    case '529':
      // OpenAI has no 529 of its own; Anthropic-style overload status with OpenAI's overload wording.
      return openaiError(529, 'The engine is currently overloaded, please try again later.', 'server_error');
  }
}
