import { afterEach, describe, expect, it, vi } from 'vitest';
import { settlementEntry } from '../../helpers/settlement-entry.js';
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

const { MemoryStore } = await import('../../../src/store/memory/memory-store.js');
const { SETTLE_CHUNK, SETTLE_MAX_SLICES, settleSliceSize } = await import('../../../src/store/memory/settle-slices.js');

const entry = (i: number): SettlementEntry => settlementEntry({ requestId: `req-${i}` });

const stores: InstanceType<typeof MemoryStore>[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('MemoryStore.settle slices a batch', () => {
  const newStore = async (): Promise<InstanceType<typeof MemoryStore>> => {
    const store = new MemoryStore({ snapshotPath: null });
    stores.push(store);
    await store.createOrg({ id: 'org-a', name: 'a', status: 'active', createdAt: 1, fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
    return store;
  };
  /** Settles `n` entries while counting event-loop turns between slices. */
  const settleCounting = async (store: InstanceType<typeof MemoryStore>, n: number): Promise<string[]> => {
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    slices.length = 0;
    const applied = await store.settle(Array.from({ length: n }, (_, i) => entry(i)));
    ticking = false;
    return applied;
  };

  it('applies a batch the size of a normal flush as transactions of at most SETTLE_CHUNK entries, the loop turning between two', async () => {
    expect(SETTLE_CHUNK).toBeLessThanOrEqual(64);
    const store = await newStore();
    const n = 3 * SETTLE_CHUNK + 12;
    const applied = await settleCounting(store, n);
    expect(applied).toHaveLength(n);
    expect(slices.map((s) => s.size)).toEqual([SETTLE_CHUNK, SETTLE_CHUNK, SETTLE_CHUNK, 12]);
    // Other work (a request's I/O, its timers) runs between two slices: none follows the previous one in the same turn.
    expect(slices.slice(1).every((s) => s.turnsBefore >= 1)).toBe(true);
  });

  it('applies a backlog batch in at most SETTLE_MAX_SLICES transactions, so the settlement rate grows with the batch', async () => {
    const store = await newStore();
    const applied = await settleCounting(store, 1000);
    expect(applied).toHaveLength(1000);
    expect(slices.length).toBe(SETTLE_MAX_SLICES);
    expect(Math.max(...slices.map((s) => s.size))).toBe(settleSliceSize(1000));
    expect(slices.slice(1).every((s) => s.turnsBefore >= 1)).toBe(true);
    // Still exactly once per request id across slices.
    expect(await store.settle([entry(3), entry(999)])).toEqual([]);
    expect((await store.listLedger('org-a', { limit: 2000 })).length).toBe(1000);
  });
});
