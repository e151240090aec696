/**
 * Google API error responses, `{error: {code, message, status, details?}}`, as the Gemini API and Vertex
 * AI send them (Gemini API "Troubleshooting" error table; Vertex AI "API errors"). Notable: a wrong Gemini
 * API key is 400 INVALID_ARGUMENT with reason API_KEY_INVALID, a missing one 403 PERMISSION_DENIED;
 * Vertex answers a bad token with 401 UNAUTHENTICATED. Rate limits put the wait in RetryInfo, not a header.
 */
import type { SimRequest } from '../dialect.js';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';

export function googleError(status: number, grpcStatus: string, message: string, details?: unknown[]): JsonReply {
  const error: Record<string, unknown> = { code: status, message, status: grpcStatus };
  if (details) error.details = details;
  return { status, headers: { vary: 'Origin, X-Origin, Referer' }, body: { error } };
}

export function isVertexPath(request: SimRequest): boolean {
  return (request.req.url ?? '').includes('/publishers/google/models/');
}

function keyInvalid(): JsonReply {
  const message = 'API key not valid. Please pass a valid API key.';
  return googleError(400, 'INVALID_ARGUMENT', message, [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' },
    },
    { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
  ]);
}

function unauthenticated(): JsonReply {
  return googleError(
    401,
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_TYPE_UNSUPPORTED', domain: 'googleapis.com' }],
  );
}

function header(request: SimRequest, name: string): string | undefined {
  const v = request.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Gemini API: `x-goog-api-key` or `?key=`; checked only when the endpoint sets `apiKey`. */
export function checkApiKey(request: SimRequest): JsonReply | null {
  const expected = request.config.apiKey;
  if (expected === null) return null;
  const query = new URL(request.req.url ?? '/', 'http://sim.invalid').searchParams.get('key');
  const key = header(request, 'x-goog-api-key') ?? query ?? undefined;
  if (key === undefined) {
    return googleError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
  }
  return key === expected ? null : keyInvalid();
}

/** Vertex AI: `Authorization: Bearer <access token>`; express mode (no project in the path) takes an API key. */
export function checkVertexAuth(request: SimRequest, express: boolean): JsonReply | null {
  if (express) return checkApiKey(request);
  const expected = request.config.apiKey;
  if (expected === null) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization')?.trim() ?? '');
  return match?.[1] === expected ? null : unauthenticated();
}

export function modelNotFound(request: SimRequest, model: string, version: string): JsonReply {
  if (isVertexPath(request)) {
    return googleError(
      404,
      'NOT_FOUND',
      `Publisher Model \`publishers/google/models/${model}\` was not found or your project does not have access to it. Please ensure you are using a valid model version. For more information, see: https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions`,
    );
  }
  return googleError(
    404,
    'NOT_FOUND',
    `models/${model} is not found for API version ${version}, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  );
}

export function googleFaultError(kind: StatusFault, request: SimRequest): JsonReply {
  const vertex = isVertexPath(request);
  switch (kind) {
    case '400':
      return googleError(400, 'INVALID_ARGUMENT', 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).');
    case '401':
      return unauthenticated();
    case '429': {
      const retryDelay = `${request.config.retryAfterS}s`;
      if (vertex) {
        return googleError(
          429,
          'RESOURCE_EXHAUSTED',
          'Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.',
        );
      }
      return googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [
              {
                quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
                quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
                quotaValue: '15',
              },
            ],
          },
          { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
        ],
      );
    }
    case '500':
      return googleError(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
    case '503':
      return googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    case '529':
      // Google has no 529; the overload body of its 503 under the status the fault asks for.
      return googleError(529, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
  }
}
