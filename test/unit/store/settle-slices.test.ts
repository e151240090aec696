import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SettlementEntry } from '../../../src/store/contract.js';

/** Every transaction body that applies settlements, with the event-loop turns seen since the previous one. */
const slices: { size: number; turnsBefore: number }[] = [];
let turns = 0;
vi.mock('../../../src/store/memory/durable.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../../src/store/memory/durable.js')>();
  return {
    ...orig,
    applySettlements: (...args: Parameters<typeof orig.applySettlements>) => {
      slices.push({ size: args[1].length, turnsBefore: turns });
      turns = 0;
      return orig.applySettlements(...args);
    },
  };
});

const { MemoryStore, SETTLE_CHUNK } = await import('../../../src/store/memory/memory-store.js');

const entry = (i: number): SettlementEntry => ({
  requestId: `req-${i}`,
  orgId: 'org-a',
  keyId: 'key-1',
  teamId: null,
  user: null,
  model: 'gpt-4o-mini',
  requestedModel: 'gpt-4o-mini',
  cost: 1000,
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  tokens: 120,
  tags: [],
  hadHold: false,
  scopes: [],
  status: 'ok',
  endpoint: '/v1/chat/completions',
  latencyMs: 3,
  at: Date.now(),
});

const stores: InstanceType<typeof MemoryStore>[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('MemoryStore.settle slices a large batch', () => {
  it('applies 1,000 entries as transactions of at most SETTLE_CHUNK entries, with the event loop turning between two slices', async () => {
    expect(SETTLE_CHUNK).toBeLessThanOrEqual(16);
    const store = new MemoryStore({ snapshotPath: null });
    stores.push(store);
    await store.createOrg({ id: 'org-a', name: 'a', status: 'active', createdAt: 1, fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    slices.length = 0;
    const applied = await store.settle(Array.from({ length: 1000 }, (_, i) => entry(i)));
    ticking = false;
    expect(applied).toHaveLength(1000);
    expect(slices.length).toBe(Math.ceil(1000 / SETTLE_CHUNK));
    expect(Math.max(...slices.map((s) => s.size))).toBeLessThanOrEqual(SETTLE_CHUNK);
    // Other work (a request's I/O, its timers) runs between two slices: none follows the previous one in the same turn.
    expect(slices.slice(1).every((s) => s.turnsBefore >= 1)).toBe(true);
    // Still exactly once per request id across slices.
    expect(await store.settle([entry(3), entry(999)])).toEqual([]);
    expect((await store.listLedger('org-a', { limit: 2000 })).length).toBe(1000);
  });
});
