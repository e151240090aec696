import { describe, expect, it } from 'vitest';
import { parseKeyInput, parseKeyPatch } from '../../../src/dashboard/key-input.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function param(body: unknown, allowValue = false): string | undefined | null {
  try {
    parseKeyInput(body, NOW, { allowValue });
    return null;
  } catch (e) {
    if (e instanceof GatewayError && e.status === 400) return e.param;
    throw e;
  }
}

describe('key creation body', () => {
  it('maps every field into the record options', () => {
    const k = parseKeyInput(
      {
        name: 'ci',
        team_id: 't1',
        budget_usd: 12.5,
        budget_warn_at: 0.75,
        rpm: 60,
        tpm: 10_000,
        max_concurrency: 4,
        allowed_models: ['a', 'b', 'a'],
        allowed_routes: ['/v1/chat/completions'],
        allowed_ips: ['10.0.0.0/8', '::1'],
        expires_at: '2030-02-01T00:00:00Z',
        never_compress: true,
        key_prefix: 'sk-legacy-',
      },
      NOW,
      { allowValue: false },
    );
    expect(k).toEqual({
      name: 'ci',
      teamId: 't1',
      budget: 12_500_000_000,
      budgetWarnAt: 0.75,
      rpm: 60,
      tpm: 10_000,
      maxConcurrency: 4,
      allowedModels: ['a', 'b'],
      allowedRoutes: ['/v1/chat/completions'],
      allowedIps: ['10.0.0.0/8', '::1'],
      expiresAt: Date.parse('2030-02-01T00:00:00Z'),
      neverCompress: true,
      prefix: 'sk-legacy-',
      value: null,
    });
  });

  it.each([
    [{ name: 'x', extra: 1 }, 'extra'],
    [{}, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'x', budget_usd: -1 }, 'budget_usd'],
    [{ name: 'x', budget_usd: 1, budget_warn_at: 1.5 }, 'budget_warn_at'],
    [{ name: 'x', budget_warn_at: 0.5 }, 'budget_warn_at'],
    [{ name: 'x', rpm: 0 }, 'rpm'],
    [{ name: 'x', tpm: '5' }, 'tpm'],
    [{ name: 'x', allowed_models: [] }, 'allowed_models'],
    [{ name: 'x', allowed_models: [''] }, 'allowed_models'],
    [{ name: 'x', allowed_routes: ['/admin'] }, 'allowed_routes'],
    [{ name: 'x', allowed_ips: ['300.1.1.1'] }, 'allowed_ips'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'x', expires_at: '2029-12-31T23:59:59Z' }, 'expires_at'],
    [{ name: 'x', never_compress: 'yes' }, 'never_compress'],
    [{ name: 'x', value: 'sk-svc-aaaaaaaaaaaaaaaaaaaa' }, 'value'],
  ])('%j is refused on %s', (body, p) => {
    expect(param(body)).toBe(p);
  });

  it('import rows may carry an existing value with a known prefix', () => {
    expect(parseKeyInput({ name: 'x', value: 'sk-legacy-Q7vN2kLp9XwR4tYb8MzC3d' }, NOW, { allowValue: true })).toMatchObject({ prefix: 'sk-legacy-', value: 'sk-legacy-Q7vN2kLp9XwR4tYb8MzC3d' });
    // Weak imported values: a repeated character, a counting run, too few characters of one class.
    for (const weak of ['sk-svc-aaaaaaaaaaaaaaaaaaaaaaaa', 'sk-svc-0123456789012345678901234567', 'sk-svc-abcdefghijabcdefghij', 'sk-svc-0123456789abcdef0123']) {
      expect(param({ name: 'x', value: weak }, true), weak).toBe('value');
    }
    expect(param({ name: 'x', value: 'sk-other-aaaaaaaaaaaaaaaaaaaa' }, true)).toBe('value');
    expect(param({ name: 'x', value: 'sk-svc-short' }, true)).toBe('value');
    expect(param({ name: 'x', value: 'sk-svc-Q7vN2kLp9XwR4tYb8MzC3d', key_prefix: 'sk-legacy-' }, true)).toBe('key_prefix');
  });

  it('patch accepts only name, budget_usd, rpm, tpm; null clears', () => {
    expect(parseKeyPatch({ budget_usd: null, rpm: 5 })).toEqual({ budget: null, rpm: 5 });
    expect(() => parseKeyPatch({})).toThrow('Nothing to change');
    expect(() => parseKeyPatch({ status: 'active' })).toThrow('Unknown field status.');
  });
});
