/**
 * The error catalog: one row per refusal the gateway can produce, mirroring the contract's Errors section
 * (spec/gateway-api.md "Errors"). Code throws catalog entries, never ad-hoc status numbers.
 */
export interface CatalogEntry {
  readonly status: number;
  readonly type: string;
  /** Machine-readable `error.code`; null where the contract gives none (unknown svc_* key). */
  readonly code: string | null;
  readonly message: string;
}

function entry(status: number, type: string, code: string | null, message: string): CatalogEntry {
  return Object.freeze({ status, type, code, message });
}

export const ERRORS = Object.freeze({
  invalid_request: entry(400, 'invalid_request', 'invalid_request', 'The request is malformed.'),
  unknown_control_field: entry(400, 'invalid_request', null, 'Unknown svc_* field.'),
  guardrail_blocked: entry(400, 'guardrail_blocked', 'guardrail_blocked', 'The request was blocked by a guardrail.'),
  guardrail_not_found: entry(400, 'invalid_request', 'guardrail_not_found', 'Guardrail not found.'),
  fallback_not_allowed: entry(400, 'invalid_request', 'fallback_not_allowed', 'Fallback target not allowed.'),
  input_too_large: entry(400, 'invalid_request', 'input_too_large', "The prompt exceeds the model's input ceiling."),
  max_output_tokens_too_large: entry(
    400,
    'invalid_request',
    'max_output_tokens_too_large',
    'The requested output exceeds the model maximum.',
  ),
  invalid_api_key: entry(401, 'invalid_api_key', 'invalid_api_key', 'Invalid API key.'),
  // Dashboard API (gateway-api.md, Authentication 5 and Errors rule 3).
  session_required: entry(401, 'authentication_error', 'session_required', 'Sign in to use the dashboard API.'),
  invalid_credentials: entry(401, 'authentication_error', 'invalid_credentials', 'Wrong e-mail address or password.'),
  virtual_key_not_accepted: entry(
    401,
    'authentication_error',
    'virtual_key_not_accepted',
    'A virtual key is never accepted on the dashboard API; sign in and use the session cookie.',
  ),
  insufficient_credits: entry(402, 'gateway_error', 'insufficient_credits', 'Insufficient credits for this request.'),
  key_forbidden: entry(403, 'authentication_error', 'key_route_not_allowed', 'The key may not use this resource.'),
  insufficient_role: entry(403, 'authentication_error', 'insufficient_role', 'This action needs the Owner or org_admin role.'),
  origin_not_allowed: entry(403, 'authentication_error', 'origin_not_allowed', 'Origin or Referer does not match the dashboard origin.'),
  model_not_found: entry(404, 'invalid_request', 'model_not_found', 'The model does not exist or is not available.'),
  not_found: entry(404, 'invalid_request', 'not_found', 'Not found.'),
  method_not_allowed: entry(405, 'invalid_request', 'method_not_allowed', 'Method not allowed.'),
  conflict: entry(409, 'invalid_request', 'conflict', 'The request conflicts with the current state.'),
  payload_too_large: entry(413, 'invalid_request', 'payload_too_large', 'The request body is too large.'),
  unsupported_media_type: entry(415, 'invalid_request', 'invalid_request', 'Content-Type must be application/json.'),
  rate_limit_exceeded: entry(429, 'gateway_error', 'rate_limit_exceeded', 'Rate limit exceeded.'),
  tpm_limit_exceeded: entry(429, 'gateway_error', 'tpm_limit_exceeded', 'Token rate limit exceeded.'),
  internal_error: entry(500, 'gateway_error', 'service_unavailable', 'Internal error.'),
  channel_test_failed: entry(502, 'gateway_error', 'channel_test_failed', 'The notification channel test failed.'),
  // The contract's table has no 502/504: upstream failures are 503 service_unavailable ("Upstream or dependency
  // unavailable"); x-svc-upstream-status tells an operator what the provider said.
  upstream_error: entry(503, 'gateway_error', 'service_unavailable', 'The upstream provider failed.'),
  service_unavailable: entry(503, 'gateway_error', 'service_unavailable', 'Service temporarily unavailable.'),
  credit_check_failed: entry(503, 'gateway_error', 'credit_check_failed', 'Credit system temporarily unavailable.'),
  upstream_timeout: entry(503, 'gateway_error', 'service_unavailable', 'The upstream provider timed out.'),
  // Never sent (the client has gone): what the request log and the request metrics record when the client closed
  // its connection before any answer, nginx's 499, so that cancelled requests do not read as provider outages.
  client_closed: entry(499, 'gateway_error', 'client_closed_request', 'The client closed the connection before the answer.'),
});

export type ErrorName = keyof typeof ERRORS;
