/** Contract cases: settlement (exactly once), ledger and spend counters. */
import { expect, it } from 'vitest';
import type { SpendRow, Store } from '../../src/store/contract.js';
import type { MakeStore } from './store.suite.js';
import { orgWithKey, settlement, uid } from './store-fixtures.js';

const DAY1 = Date.UTC(2025, 2, 1, 23, 59, 59);
const DAY2 = Date.UTC(2025, 2, 2, 0, 0, 1);

function row(group: string, cost: number, requests: number, inputTokens: number, outputTokens: number): SpendRow {
  return { group, cost, requests, inputTokens, outputTokens };
}

export function settleCases(get: () => Store, makeStore: MakeStore): void {
  it('releases the hold, debits the cost, writes the ledger and applies each request id once', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 10_000, 't1');
    const rid = uid('req');
    expect((await store.hold({ orgId, requestId: rid, amount: 3_000, now: Date.now(), ttlMs: 60_000, budgets: [] })).ok).toBe(true);
    const e = settlement(orgId, key.id, { requestId: rid, cost: 1_234, hadHold: true, tags: ['env=prod'] });
    expect(await store.settle([e])).toEqual([rid]);
    expect(await store.getBalance(orgId)).toEqual({ balance: 8_766, held: 0 });
    expect(await store.getLedgerEntry(orgId, rid)).toEqual({ ...e, balanceAfter: 8_766 });

    expect(await store.settle([e, { ...e, cost: 999_999 }])).toEqual([]);
    expect(await store.getBalance(orgId)).toEqual({ balance: 8_766, held: 0 });
    expect(await store.listLedger(orgId)).toHaveLength(1);
    expect(await store.spend(orgId, 'key')).toEqual([row(key.id, 1_234, 1, 10, 5)]);
    expect(await store.getLedgerEntry(orgId, uid('req'))).toBeNull();
  });

  it('applies duplicates inside one batch once and returns only the newly applied ids, in order', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 10_000, 't1');
    const a = settlement(orgId, key.id, { cost: 100 });
    const b = settlement(orgId, key.id, { cost: 200 });
    expect(await store.settle([a, b, a, b])).toEqual([a.requestId, b.requestId]);
    const c = settlement(orgId, key.id, { cost: 300 });
    expect(await store.settle([b, c, a])).toEqual([c.requestId]);
    expect((await store.getBalance(orgId)).balance).toBe(9_400);
    const ledger = await store.listLedger(orgId);
    expect(ledger.map((l) => [l.requestId, l.balanceAfter])).toEqual([
      [c.requestId, 9_400],
      [b.requestId, 9_700],
      [a.requestId, 9_900],
    ]);
  });

  it('lets the balance go negative by the difference between hold and actual cost', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 1_000, 't1');
    const rid = uid('req');
    await store.hold({ orgId, requestId: rid, amount: 1_000, now: Date.now(), ttlMs: 60_000, budgets: [] });
    await store.settle([settlement(orgId, key.id, { requestId: rid, cost: 1_250, hadHold: true })]);
    expect(await store.getBalance(orgId)).toEqual({ balance: -250, held: 0 });
    expect((await store.hold({ orgId, requestId: uid('r'), amount: 0, now: Date.now(), ttlMs: 1_000, budgets: [] })).ok).toBe(false);
  });

  it('keeps balance - held consistent while holds and settlements interleave', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 100_000, 't1');
    const rids = Array.from({ length: 6 }, () => uid('req'));
    for (const rid of rids) await store.hold({ orgId, requestId: rid, amount: 10_000, now: Date.now(), ttlMs: 60_000, budgets: [] });
    expect(await store.getBalance(orgId)).toEqual({ balance: 100_000, held: 60_000 });
    await store.settle(rids.slice(0, 3).map((rid) => settlement(orgId, key.id, { requestId: rid, cost: 7_000, hadHold: true })));
    await store.releaseHold(orgId, rids[3] ?? '');
    expect(await store.getBalance(orgId)).toEqual({ balance: 79_000, held: 20_000 });
    await store.settle(rids.map((rid) => settlement(orgId, key.id, { requestId: rid, cost: 1_000, hadHold: true })));
    expect(await store.getBalance(orgId)).toEqual({ balance: 76_000, held: 0 });
  });

  it('groups spend by key, model, tag, day (UTC), team and user', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const k2 = uid('key');
    const common = { inputTokens: 100, outputTokens: 10 };
    await store.settle([
      settlement(orgId, key.id, { ...common, cost: 1, model: 'gpt-4o', tags: ['env=prod', 'app=chat'], at: DAY1, teamId: 't1', user: 'alice' }),
      settlement(orgId, key.id, { ...common, cost: 2, model: 'gpt-4o', tags: ['env=prod', 'env=prod'], at: DAY2, teamId: 't1' }),
      settlement(orgId, k2, { ...common, cost: 4, model: 'claude-sonnet-4', tags: [], at: DAY2, user: 'alice' }),
      settlement(orgId, k2, { ...common, cost: 8, model: 'gpt-4o', tags: ['app=chat'], at: DAY2, teamId: 't2', user: 'bob' }),
    ]);
    const [first, second] = [key.id, k2].sort();
    expect(await store.spend(orgId, 'key')).toEqual([
      row(first ?? '', first === key.id ? 3 : 12, 2, 200, 20),
      row(second ?? '', second === key.id ? 3 : 12, 2, 200, 20),
    ]);
    expect(await store.spend(orgId, 'model')).toEqual([row('claude-sonnet-4', 4, 1, 100, 10), row('gpt-4o', 11, 3, 300, 30)]);
    expect(await store.spend(orgId, 'tag')).toEqual([row('app=chat', 9, 2, 200, 20), row('env=prod', 3, 2, 200, 20)]);
    expect(await store.spend(orgId, 'day')).toEqual([row('2025-03-01', 1, 1, 100, 10), row('2025-03-02', 14, 3, 300, 30)]);
    expect(await store.spend(orgId, 'team')).toEqual([row('t1', 3, 2, 200, 20), row('t2', 8, 1, 100, 10)]);
    expect(await store.spend(orgId, 'user')).toEqual([row('alice', 5, 2, 200, 20), row('bob', 8, 1, 100, 10)]);
    expect(await store.scopeSpend(orgId, 'key', k2)).toBe(12);
    expect(await store.scopeSpend(orgId, 'team', 't1')).toBe(3);
    expect(await store.scopeSpend(orgId, 'team', 'nobody')).toBe(0);
    expect(await store.spend(uid('org'), 'model')).toEqual([]);
  });

  it('settles a batch spanning several orgs into each org', async () => {
    const store = get();
    const a = await orgWithKey(store);
    const b = await orgWithKey(store);
    await store.topUp(a.orgId, 1_000, 't');
    await store.topUp(b.orgId, 1_000, 't');
    const ea = settlement(a.orgId, a.key.id, { cost: 10 });
    const eb = settlement(b.orgId, b.key.id, { cost: 20 });
    const ea2 = settlement(a.orgId, a.key.id, { cost: 30 });
    expect(await store.settle([ea, eb, ea2])).toEqual([ea.requestId, eb.requestId, ea2.requestId]);
    expect((await store.getBalance(a.orgId)).balance).toBe(960);
    expect((await store.getBalance(b.orgId)).balance).toBe(980);
    expect(await store.getLedgerEntry(b.orgId, ea.requestId)).toBeNull();
    expect((await store.listLedger(b.orgId)).map((e) => e.requestId)).toEqual([eb.requestId]);
  });

  it('lists the ledger newest first with limit and sinceMs', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const entries = Array.from({ length: 5 }, (_, i) => settlement(orgId, key.id, { cost: i, at: 1_000 * (i + 1) }));
    await store.settle(entries.slice(0, 3));
    await store.settle(entries.slice(3));
    const ids = entries.map((e) => e.requestId).reverse();
    expect((await store.listLedger(orgId)).map((e) => e.requestId)).toEqual(ids);
    expect((await store.listLedger(orgId, { limit: 2 })).map((e) => e.requestId)).toEqual(ids.slice(0, 2));
    expect((await store.listLedger(orgId, { sinceMs: 3_000 })).map((e) => e.requestId)).toEqual(ids.slice(0, 3));
    expect((await store.listLedger(orgId, { sinceMs: 2_000, limit: 10 })).map((e) => e.at)).toEqual([5_000, 4_000, 3_000, 2_000]);
    expect(await store.listLedger(orgId, { limit: 0 })).toEqual([]);
    expect(await store.listLedger(uid('org'))).toEqual([]);
  });

  it('keeps large nano-USD amounts exact (beyond 2^32, below 2^53)', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const big = 4_000_000_000_000_123; // $4M and a bit, in nano-USD
    await store.topUp(orgId, big, 'big');
    const cost = 1_000_000_000_007;
    await store.settle([settlement(orgId, key.id, { cost })]);
    expect(await store.getBalance(orgId)).toEqual({ balance: big - cost, held: 0 });
    expect((await store.listLedger(orgId))[0]?.balanceAfter).toBe(big - cost);
    expect(await store.scopeSpend(orgId, 'key', key.id)).toBe(cost);
    expect((await store.hold({ orgId, requestId: uid('r'), amount: big - cost, now: Date.now(), ttlMs: 1_000, budgets: [] })).ok).toBe(true);
  });

  it('keeps the newest ledgerCap entries and their lookup; spend counters keep everything', async () => {
    const { store, cleanup } = await makeStore({ ledgerCap: 3 });
    try {
      const { orgId, key } = await orgWithKey(store);
      const entries = Array.from({ length: 5 }, () => settlement(orgId, key.id, { cost: 10 }));
      await store.settle(entries.slice(0, 2));
      await store.settle(entries.slice(2));
      const ids = entries.map((e) => e.requestId);
      expect((await store.listLedger(orgId, { limit: 10 })).map((e) => e.requestId)).toEqual(ids.slice(2).reverse());
      expect(await store.getLedgerEntry(orgId, ids[1] ?? '')).toBeNull();
      expect((await store.getLedgerEntry(orgId, ids[2] ?? ''))?.balanceAfter).toBe(-30);
      expect(await store.settle([entries[2], entries[4]].filter((e) => e !== undefined))).toEqual([]);
      // Trimming happens after a whole batch: a duplicate later in the same batch is still recognised.
      const more = Array.from({ length: 4 }, () => settlement(orgId, key.id, { cost: 0 }));
      const batch = [...more, ...more.slice(0, 1)];
      expect(await store.settle(batch)).toEqual(more.map((e) => e.requestId));
      expect(await store.spend(orgId, 'key')).toEqual([row(key.id, 50, 9, 90, 45)]);
      // The idempotency window is the cap: an id older than the last ledgerCap entries is new again.
      expect(await store.settle(entries.slice(0, 1))).toEqual(ids.slice(0, 1));
      expect((await store.getBalance(orgId)).balance).toBe(-60);
    } finally {
      await cleanup();
    }
  });
}
