import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../src/errors/codes.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';

describe('GatewayError', () => {
  it('renders the contract error object from the catalog', () => {
    const e = new GatewayError('insufficient_credits', { headers: { 'x-svc-limit-source': 'plan' } });
    expect(e.status).toBe(402);
    expect(e.toBody()).toEqual({
      error: { message: ERRORS.insufficient_credits.message, type: 'gateway_error', code: 'insufficient_credits' },
    });
    expect(e.headers['x-svc-limit-source']).toBe('plan');
  });

  it('omits error.code where the contract has none', () => {
    const e = new GatewayError('unknown_control_field', { message: 'Unknown field svc_foo' });
    expect(e.toBody().error.code).toBeUndefined();
    expect(e.status).toBe(400);
  });
});
