import { GatewayError } from '../../errors/gateway-error.js';
import { scrubAccounts } from '../error-detail.js';

/**
 * Anything credential-like in upstream text: OpenAI `sk-...`, Google `AIza...` API keys and `ya29.` OAuth
 * tokens, AWS key ids, bearer tokens, JWTs, and any run of 32+ key characters (Azure's 32-hex keys,
 * Mistral's 32-character keys carry no prefix). Over-redacting a long request id is the cheaper mistake.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|key|AKIA|AIza)[-_A-Za-z0-9]{8,}/g,
  /\bya29\.[-_.A-Za-z0-9]+/g,
  /\bBearer\s+[-_.~+/A-Za-z0-9]+=*/gi,
  /\beyJ[-_A-Za-z0-9]+\.[-_A-Za-z0-9]+\.[-_A-Za-z0-9]*/g,
  /[A-Za-z0-9]{32,}/g,
];

export function scrubSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_PATTERNS) out = out.replace(re, '[redacted]');
  return out;
}

/** Upstream text is reduced to its `error.message` and scrubbed of anything key-like before it is shown. */
export function upstreamMessage(body: string): string {
  let msg = '';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const e = parsed.error;
    msg = typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : String(parsed.message ?? '');
  } catch {
    msg = '';
  }
  return scrubSecrets(msg).slice(0, 500);
}

/**
 * An upstream error status -> the contract's catalog, shared by every provider once it has extracted a
 * scrubbed detail: 400/404/422 invalid_request, 429 rate_limit_exceeded, 401/403 (or a provider's own
 * "bad credential" 400) a 503 that never shows upstream text, anything else service_unavailable. Only a
 * rejected request shows the provider's reason (without account ids: ../error-detail.ts).
 */
export function mapUpstreamStatus(status: number, detail: string, credentialRefused = false): GatewayError {
  const withDetail = (base: string): string => (detail && status !== 429 && status < 500 ? `${base}: ${scrubAccounts(detail)}` : base);
  const headers = { 'x-svc-upstream-status': String(status) };
  if (credentialRefused || status === 401 || status === 403) {
    // Our credential, not the client's: never a 401 to the client, never the upstream's text.
    return new GatewayError('upstream_error', { message: 'The provider refused the gateway credentials.', headers });
  }
  if (status === 400 || status === 404 || status === 422) {
    return new GatewayError('invalid_request', { message: withDetail('The provider rejected the request'), headers });
  }
  if (status === 429) {
    return new GatewayError('rate_limit_exceeded', { message: withDetail('The provider is rate limiting'), headers });
  }
  return new GatewayError('service_unavailable', { message: withDetail('The provider is unavailable'), headers });
}

/** OpenAI error statuses -> the contract's catalog. */
export function mapOpenAIError(status: number, body: string): GatewayError {
  return mapUpstreamStatus(status, upstreamMessage(body));
}
