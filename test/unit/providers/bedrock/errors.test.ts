/** Bedrock error responses -> the contract's errors; failover classification; no credential leaks. */
import { describe, expect, it } from 'vitest';
import { bedrockAdapter } from '../../../../src/providers/bedrock/adapter.js';

const ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('bedrockAdapter.mapError', () => {
  const cases = [
    [400, 'ValidationException: Malformed input request: #: extraneous key [foo] is not permitted', 400, 'invalid_request', true],
    [403, 'The security token included in the request is invalid.', 503, 'service_unavailable', false],
    [404, 'Could not resolve the foundation model from the provided model identifier.', 400, 'invalid_request', true],
    [408, 'Model has timed out in processing the request.', 503, 'service_unavailable', false],
    [424, 'Received error from model: out of memory', 503, 'service_unavailable', false],
    [429, 'Too many requests, please wait before trying again.', 429, 'rate_limit_exceeded', false],
    [500, 'The server encountered an internal error while processing the request.', 503, 'service_unavailable', false],
    [503, 'Bedrock is unable to process your request.', 503, 'service_unavailable', false],
  ] as const;

  it.each(cases)('%i -> %i %s', (status, message, wantStatus, wantCode, showsDetail) => {
    const error = bedrockAdapter.mapError(status, JSON.stringify({ message }));
    expect(error.status).toBe(wantStatus);
    expect(error.code).toBe(wantCode);
    expect(error.message.includes(message)).toBe(showsDetail);
  });

  it.each(cases)('%i: credentials echoed upstream never reach the mapped message', (status) => {
    const error = bedrockAdapter.mapError(status, JSON.stringify({ message: `Credential=${ACCESS_KEY}/20250101 secret ${SECRET} denied` }));
    expect(error.message).not.toContain(ACCESS_KEY);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(SECRET.slice(0, 20));
  });

  it('may fail over after throttling (429) and unavailability (503), never after a 500', () => {
    const statuses = [400, 403, 404, 408, 424, 429, 500, 503];
    expect(statuses.filter((s) => bedrockAdapter.mayFailOver(s))).toEqual([429, 503]);
  });
});
