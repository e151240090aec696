import { GatewayError } from '../../errors/gateway-error.js';

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
  return msg.replace(/\b(sk|key|AKIA|AIza)[-_A-Za-z0-9]{8,}/g, '[redacted]').slice(0, 500);
}

/** OpenAI error statuses -> the contract's catalog. */
export function mapOpenAIError(status: number, body: string): GatewayError {
  const detail = upstreamMessage(body);
  const withDetail = (base: string): string => (detail ? `${base}: ${detail}` : base);
  const headers = { 'x-svc-upstream-status': String(status) };
  if (status === 400 || status === 404 || status === 422) {
    return new GatewayError('invalid_request', { message: withDetail('The provider rejected the request'), headers });
  }
  if (status === 429) {
    return new GatewayError('rate_limit_exceeded', { message: withDetail('The provider is rate limiting'), headers });
  }
  if (status === 401 || status === 403) {
    // Our credential, not the client's: never a 401 to the client, never the upstream's text.
    return new GatewayError('upstream_error', { message: 'The provider refused the gateway credentials.', headers });
  }
  return new GatewayError('service_unavailable', { message: withDetail('The provider is unavailable'), headers });
}
