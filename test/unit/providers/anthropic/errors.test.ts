/** Anthropic error responses -> the contract's errors; failover classification; no credential leaks. */
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../../../src/providers/anthropic/adapter.js';

const KEY = 'sk-ant-api03-Zq8v1nXkR4bT7yW2cE5fH9jL3mP6sU0aD';
const body = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

describe('anthropicAdapter.mapError', () => {
  const cases = [
    [400, 'invalid_request_error', 'messages: text content blocks must be non-empty', 400, 'invalid_request', true],
    [401, 'authentication_error', 'invalid x-api-key', 503, 'service_unavailable', false],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', 503, 'service_unavailable', false],
    [404, 'not_found_error', 'model: claude-nope', 400, 'invalid_request', true],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', 413, 'payload_too_large', true],
    [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', 429, 'rate_limit_exceeded', false],
    [500, 'api_error', 'Internal server error', 503, 'service_unavailable', false],
    [503, 'api_error', 'Service Unavailable', 503, 'service_unavailable', false],
    [529, 'overloaded_error', 'Overloaded', 503, 'service_unavailable', false],
  ] as const;

  it.each(cases)('%i %s -> %i %s', (status, type, message, wantStatus, wantCode, showsDetail) => {
    const error = anthropicAdapter.mapError(status, body(type, message));
    expect(error.status).toBe(wantStatus);
    expect(error.code).toBe(wantCode);
    expect(error.headers['x-svc-upstream-status']).toBe(String(status));
    // Only a rejected request shows the provider's reason; credential refusals, limits and outages use our own words.
    expect(error.message.includes(message)).toBe(showsDetail);
  });

  it.each(cases)('%i: the key echoed in the upstream body never reaches the mapped message', (status, type) => {
    const leaky = body(type, `Invalid API key ${KEY} for org; key=${KEY.slice(7)} token ${KEY}`);
    const error = anthropicAdapter.mapError(status, leaky);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain(KEY.slice(7));
    expect(JSON.stringify(error.toBody())).not.toContain(KEY.slice(12));
  });

  it('a non-JSON error body still maps by status', () => {
    expect(anthropicAdapter.mapError(529, '<html>overloaded</html>').status).toBe(503);
    expect(anthropicAdapter.mapError(429, '').code).toBe('rate_limit_exceeded');
  });

  it('may fail over after 429, 503 and 529 only', () => {
    const statuses = [400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529];
    expect(statuses.filter((s) => anthropicAdapter.mayFailOver(s))).toEqual([429, 503, 529]);
  });
});
