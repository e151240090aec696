/**
 * Each atomic step under contention. Redis runs against a private redis-server with four connections, as four
 * gateway nodes would; the memory store runs the same cases on one instance. Exact counts prove the step is
 * atomic: a check-then-write race would over-admit or double-apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { MemoryStore } from '../../src/store/memory/memory-store.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { orgWithKey, scope, settlement, uid } from '../conformance/store-fixtures.js';

interface Nodes {
  stores: Store[];
  close: () => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function concurrencyCases(name: string, open: () => Promise<Nodes>): void {
  describe(`store concurrency: ${name}`, () => {
    let nodes: Nodes;
    const node = (i: number): Store => nodes.stores[i % nodes.stores.length] as Store;
    beforeAll(async () => void (nodes = await open()));
    afterAll(async () => nodes.close());

    it('200 parallel holds against a balance covering exactly 50: 50 succeed', async () => {
      const { orgId } = await orgWithKey(node(0));
      const amount = 1_000_003;
      await node(0).topUp(orgId, 50 * amount, 'seed');
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          node(i).hold({ orgId, requestId: uid('req'), amount, now, ttlMs: 60_000, budgets: [] }),
        ),
      );
      const ok = results.filter((r) => r.ok);
      expect(ok).toHaveLength(50);
      // Serialised: each success saw a different remaining amount, 49*amount down to 0.
      expect(new Set(ok.map((r) => r.available)).size).toBe(50);
      expect(Math.min(...ok.map((r) => r.available))).toBe(0);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.source === 'plan')).toBe(true);
      expect(await node(1).getBalance(orgId)).toEqual({ balance: 50 * amount, held: 50 * amount });
    });

    it('200 parallel holds under a key budget of 30 holds: 30 succeed', async () => {
      const { orgId, key } = await orgWithKey(node(0));
      await node(0).topUp(orgId, 1_000_000, 'seed');
      const budgets = [{ source: 'key' as const, id: key.id, limit: 300 }];
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          node(i).hold({ orgId, requestId: uid('req'), amount: 10, now: Date.now(), ttlMs: 60_000, budgets }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(30);
      expect(results.filter((r) => !r.ok && r.source === 'budget')).toHaveLength(170);
    });

    it('300 parallel admits with rpm 100 (and tpm for 100): exactly 100 admitted', async () => {
      const { orgId, key } = await orgWithKey(node(0));
      const now = Date.now();
      const scopes = [scope('key', key.id, { rpm: 100 }), scope('plan', orgId, { tpm: 1_000 })];
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          node(i).admit({ orgId, keyId: key.id, requestId: uid('req'), now: now + (i % 7), tokens: i % 2 === 0 ? 10 : 0, scopes, leaseTtlMs: 10_000 }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(100);
      for (const r of results) {
        if (!r.ok) expect(r).toMatchObject({ kind: expect.stringMatching(/^(rpm|tpm)$/), retryAfterMs: expect.any(Number) });
      }
      // TPM alone: 300 requests of 10 tokens against 1000 tokens.
      const tpmOnly = [scope('team', uid('team'), { tpm: 1_000 })];
      const tpm = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          node(i).admit({ orgId, keyId: key.id, requestId: uid('req'), now, tokens: 10, scopes: tpmOnly, leaseTtlMs: 10_000 }),
        ),
      );
      expect(tpm.filter((r) => r.ok)).toHaveLength(100);
    });

    it('100 parallel settles with duplicated request ids: each applied once, balance exact', async () => {
      const { orgId, key } = await orgWithKey(node(0));
      await node(0).topUp(orgId, 1_000_000, 'seed');
      const entries = Array.from({ length: 50 }, (_, i) => settlement(orgId, key.id, { cost: 100 + i, hadHold: true }));
      const now = Date.now();
      await Promise.all(entries.map((e, i) => node(i).hold({ orgId, requestId: e.requestId, amount: 500, now, ttlMs: 60_000, budgets: [] })));
      expect((await node(0).getBalance(orgId)).held).toBe(25_000);
      // 100 calls: every entry alone, twice, on different nodes, plus overlapping batches.
      const calls: SettlementEntryBatch[] = [];
      for (let i = 0; i < 40; i++) calls.push([entries[i % 50], entries[(i + 1) % 50]].filter(isEntry));
      for (let i = 0; i < 60; i++) calls.push([entries[i % 50]].filter(isEntry));
      const applied = (await Promise.all(calls.map((batch, i) => node(i).settle(batch)))).flat();
      expect(applied).toHaveLength(50);
      expect(new Set(applied).size).toBe(50);
      const total = entries.reduce((sum, e) => sum + e.cost, 0);
      expect(await node(2).getBalance(orgId)).toEqual({ balance: 1_000_000 - total, held: 0 });
      expect(await node(3).listLedger(orgId, { limit: 1_000 })).toHaveLength(50);
      expect(await node(1).spend(orgId, 'key')).toEqual([{ group: key.id, cost: total, requests: 50, inputTokens: 500, outputTokens: 250 }]);
    });

    it('parallel top-ups with repeated idempotency keys: each key applied once', async () => {
      const { orgId } = await orgWithKey(node(0));
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => node(i).topUp(orgId, 5_000_000_000, `evt-${i % 20}`)));
      expect(Math.max(...results.map((r) => r.balance))).toBe(20 * 5_000_000_000);
      expect(await node(0).getBalance(orgId)).toEqual({ balance: 100_000_000_000, held: 0 });
    });

    it('concurrency leases: never more than max held at once, and the maximum is reached', async () => {
      const { orgId, key } = await orgWithKey(node(0));
      const max = 5;
      const scopes = [scope('key', key.id, { maxConcurrency: max })];
      let inFlight = 0;
      let peak = 0;
      let admitted = 0;
      const worker = async (w: number): Promise<void> => {
        for (let round = 0; round < 5; round++) {
          const requestId = uid('req');
          const r = await node(w).admit({ orgId, keyId: key.id, requestId, now: Date.now(), tokens: 0, scopes, leaseTtlMs: 30_000 });
          if (!r.ok) {
            expect(r).toMatchObject({ kind: 'concurrency', source: 'key' });
            await sleep(1);
            continue;
          }
          admitted++;
          peak = Math.max(peak, ++inFlight);
          await sleep(2 + (w % 3));
          inFlight--;
          // Half release explicitly, half through settlement.
          if (round % 2 === 0) await node(w + 1).releaseLeases(orgId, requestId, scopes);
          else await node(w + 1).settle([settlement(orgId, key.id, { requestId, scopes, cost: 0 })]);
        }
      };
      await Promise.all(Array.from({ length: 40 }, (_, w) => worker(w)));
      expect(peak).toBeLessThanOrEqual(max);
      expect(peak).toBe(max);
      expect(admitted).toBeGreaterThan(max);
      // Everything was given back: max fresh requests fit again.
      const again = await Promise.all(
        Array.from({ length: max + 3 }, () => node(0).admit({ orgId, keyId: key.id, requestId: uid('r'), now: Date.now(), tokens: 0, scopes, leaseTtlMs: 30_000 })),
      );
      expect(again.filter((r) => r.ok)).toHaveLength(max);
    });
  });
}

type SettlementEntryBatch = ReturnType<typeof settlement>[];
const isEntry = (e: ReturnType<typeof settlement> | undefined): e is ReturnType<typeof settlement> => e !== undefined;

concurrencyCases('memory', async () => {
  const store = new MemoryStore({ snapshotPath: null });
  return { stores: [store], close: () => store.close() };
});

let server: RedisServer;
concurrencyCases('redis, 4 connections', async () => {
  server = await startRedisServer();
  const stores = await Promise.all(Array.from({ length: 4 }, () => createStore({ kind: 'redis', url: server.url })));
  return {
    stores,
    close: async () => {
      await Promise.all(stores.map((s) => s.close()));
      await server.stop();
    },
  };
});

describe('string sets on Redis from two nodes', () => {
  it('parallel adds and removes from two connections never lose a member', async () => {
    const redis = await startRedisServer();
    const [a, b] = [await createStore({ kind: 'redis', url: redis.url }), await createStore({ kind: 'redis', url: redis.url })];
    try {
      const ids = Array.from({ length: 200 }, (_, i) => `id-${String(i).padStart(3, '0')}`);
      await Promise.all(ids.map((id, i) => (i % 2 ? a : b).setAdd('org-x:webhooks', id)));
      await Promise.all(ids.filter((_, i) => i % 4 === 0).map((id, i) => (i % 2 ? b : a).setRemove('org-x:webhooks', id)));
      expect(await a.setMembers('org-x:webhooks')).toEqual(ids.filter((_, i) => i % 4 !== 0));
    } finally {
      await a.close();
      await b.close();
      await redis.stop();
    }
  });
});
