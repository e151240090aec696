import { describe, expect, it } from 'vitest';
import type { LimitScope } from '../../../src/store/contract.js';
import { Limiter } from '../../../src/store/memory/limiter.js';
import { WINDOW_MS } from '../../../src/store/shared.js';

const T0 = 1_700_000_000_000;

function scopes(org: string, key: string): LimitScope[] {
  return [
    { source: 'key', id: key, rpm: 2, tpm: 1_000, maxConcurrency: 5 },
    { source: 'plan', id: org, rpm: 100, tpm: null, maxConcurrency: null },
  ];
}

describe('memory store limiter', () => {
  it('keeps each scope apart by org, source and id', () => {
    const l = new Limiter();
    const admit = (org: string, key: string, i: number): boolean =>
      l.admit({ orgId: org, keyId: key, requestId: `${org}-${key}-${i}`, now: T0 + i, tokens: 10, scopes: scopes(org, key), leaseTtlMs: 60_000 }).ok;
    expect([admit('o1', 'k1', 1), admit('o1', 'k1', 2), admit('o1', 'k1', 3)]).toEqual([true, true, false]);
    // The same key id in another org, and another key in the same org, have their own windows.
    expect([admit('o2', 'k1', 4), admit('o1', 'k2', 5)]).toEqual([true, true]);
    // key: rpm, tpm and lease per (org, key) = 3 pairs x 3; plan: rpm per org = 2.
    expect(l.stateCount).toBe(11);
  });

  it('forgets idle windows and expired leases on sweep, and nothing that is still live', () => {
    const l = new Limiter();
    l.admit({ orgId: 'o1', keyId: 'k1', requestId: 'r1', now: T0, tokens: 10, scopes: scopes('o1', 'k1'), leaseTtlMs: 60_000 });
    l.admit({ orgId: 'o2', keyId: 'k9', requestId: 'r2', now: T0, tokens: 10, scopes: scopes('o2', 'k9'), leaseTtlMs: 3_600_000 });
    expect(l.stateCount).toBe(8);
    l.sweep(T0 + WINDOW_MS);
    expect(l.stateCount).toBe(8);
    l.sweep(T0 + 10 * WINDOW_MS);
    // Only o2's lease is left: it expires after an hour.
    expect(l.stateCount).toBe(1);
    l.releaseLease('o2', { source: 'key', id: 'k9' }, 'r2');
    l.sweep(T0 + 10 * WINDOW_MS);
    expect(l.stateCount).toBe(0);
  });
});
