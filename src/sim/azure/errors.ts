/**
 * Azure OpenAI error responses. The Azure front door answers auth, routing and throttling itself with
 * `{error: {code, message}}` (code a string: "401", "404", "429", "DeploymentNotFound"); errors from the
 * model service keep OpenAI's `{error: {message, type, param, code}}` (context length, server errors).
 */
import { randomUUID } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';
import { openaiError } from '../openai/errors.js';

export function azureError(status: number, code: string, message: string, headers: Record<string, string> = {}): JsonReply {
  return { status, headers: { 'apim-request-id': randomUUID(), ...headers }, body: { error: { code, message } } };
}

export function accessDenied(): JsonReply {
  return azureError(
    401,
    '401',
    'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  );
}

/** Missing api-version: Azure answers 404, not 400 (MicrosoftDocs/azure-docs#114602). */
export function resourceNotFound(): JsonReply {
  return azureError(404, '404', 'Resource not found');
}

export function apiVersionNotSupported(): JsonReply {
  return azureError(400, 'BadRequest', 'API version not supported');
}

/** `api-key: <key>` (or an Entra ID Bearer token); checked only when the endpoint sets `apiKey`. */
export function checkAzureKey(request: SimRequest): JsonReply | null {
  const expected = request.config.apiKey;
  if (expected === null) return null;
  const header = request.req.headers['api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  const bearer = /^Bearer\s+(.+)$/i.exec(request.req.headers.authorization?.trim() ?? '')?.[1];
  return key === expected || bearer === expected ? null : accessDenied();
}

export function azureFaultError(kind: StatusFault, request: SimRequest): JsonReply {
  const version = new URL(request.req.url ?? '/', 'http://sim.invalid').searchParams.get('api-version') ?? '2024-10-21';
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
      return accessDenied();
    case '429': {
      const s = request.config.retryAfterS;
      return azureError(
        429,
        '429',
        `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version ${version} have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after ${s} second${s === 1 ? '' : 's'}. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.`,
        { 'retry-after': String(s), 'retry-after-ms': String(s * 1000) },
      );
    }
    case '500':
      return openaiError(
        500,
        'The server had an error processing your request. Sorry about that! You can retry your request, or contact us through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 if you keep seeing this error.',
        'server_error',
      );
    case '503':
      return azureError(503, 'ServiceUnavailable', 'The service is temporarily unable to process your request. Please try again later.');
    case '529':
      // Azure has no 529; its overload body under the status the fault asks for.
      return azureError(529, 'ServiceUnavailable', 'The service is temporarily unable to process your request. Please try again later.');
  }
}
