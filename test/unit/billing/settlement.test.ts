import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettlementJournal } from '../../../src/billing/settlement-journal.js';
import { BACKLOG_BATCHES, SettlementQueue } from '../../../src/billing/settlement.js';
import { Logger } from '../../../src/obs/logger.js';
import { StoreUnavailableError, type SettlementEntry, type Store } from '../../../src/store/contract.js';

const entry = (id: string): SettlementEntry => ({
  requestId: id,
  orgId: 'o',
  keyId: 'k',
  teamId: null,
  user: null,
  model: 'm',
  requestedModel: 'm',
  cost: 1,
  inputTokens: 1,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  tokens: 2,
  tags: [],
  hadHold: true,
  scopes: [],
  status: 'ok',
  endpoint: '/v1/chat/completions',
  latencyMs: 1,
  at: 0,
});

function fakeStore(behaviour: (batch: SettlementEntry[]) => void): { store: Store; applied: string[] } {
  const applied: string[] = [];
  const store = {
    settle: async (batch: SettlementEntry[]) => {
      behaviour(batch);
      applied.push(...batch.map((e) => e.requestId));
      return batch.map((e) => e.requestId);
    },
  } as unknown as Store;
  return { store, applied };
}

/** A store whose cost is per call (a commit, a script round trip), not per entry: `ms` a call; records batch sizes. */
function slowStore(ms: number): { store: Store; sizes: number[] } {
  const sizes: number[] = [];
  const store = {
    settle: async (batch: SettlementEntry[]) => {
      sizes.push(batch.length);
      await new Promise((r) => setTimeout(r, ms));
      return batch.map((e) => e.requestId);
    },
  } as unknown as Store;
  return { store, sizes };
}

const quiet = new Logger('error', true, () => {});

describe('SettlementQueue', () => {
  it('drains a backlog with larger store calls instead of letting it grow while requests arrive faster than batches apply', async () => {
    // A store call takes 10 ms whatever its size. Fixed batches of 16 apply 1.6 entries/ms; entries arrive at ~10/ms
    // (200 every 20 ms), so the queue grew without bound before.
    const { store, sizes } = slowStore(10);
    const q = new SettlementQueue(store, { batchSize: 16, flushMs: 5 }, quiet);
    let maxPending = 0;
    let n = 0;
    for (let burst = 0; burst < 30; burst++) {
      for (let i = 0; i < 200; i++) q.enqueue(entry(`r${n++}`));
      maxPending = Math.max(maxPending, q.pending);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Bounded by one burst plus what arrives during one store call, never the ~4,000 a fixed batch size leaves behind.
    expect(maxPending).toBeLessThan(600);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BACKLOG_BATCHES * 16);
    expect(Math.max(...sizes)).toBeGreaterThan(16);
    await q.close();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
  });

  it('journals the final entry again only when it bills differently from the provisional record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
    const journal = new SettlementJournal(dir, { syncMs: 0 });
    const lines = (): { requestId: string; cost: number; latencyMs: number; status: string }[] =>
      readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    try {
      const { store } = fakeStore(() => {});
      const q = new SettlementQueue(store, { batchSize: 100, flushMs: 1_000, journal }, quiet);
      const journaled = (id: string): SettlementEntry => {
        const e = entry(id);
        q.journalThen(e, () => undefined); // group commit: written by the next synchronous append at the latest
        return e;
      };
      const same = journaled('same');
      q.enqueue({ ...entry('same'), latencyMs: 9 }, same); // only the latency differs: one record
      const repriced = journaled('repriced');
      q.enqueue({ ...entry('repriced'), cost: 7 }, repriced); // another cost: the final record follows
      const aborted = journaled('aborted');
      q.enqueue({ ...entry('aborted'), status: 'aborted' }, aborted);
      q.enqueue(entry('unjournaled')); // no provisional record: journaled as it is queued
      expect(lines().map((l) => [l.requestId, l.cost, l.status])).toEqual([
        ['same', 1, 'ok'],
        ['repriced', 1, 'ok'],
        ['repriced', 7, 'ok'],
        ['aborted', 1, 'ok'],
        ['aborted', 1, 'aborted'],
        ['unjournaled', 1, 'ok'],
      ]);
      await q.close();
    } finally {
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('flushes by size and by time', async () => {
    const { store, applied } = fakeStore(() => {});
    const q = new SettlementQueue(store, { batchSize: 2, flushMs: 20 }, quiet);
    q.enqueue(entry('a'));
    q.enqueue(entry('b')); // size bound
    await q.flush();
    expect(applied).toEqual(['a', 'b']);
    q.enqueue(entry('c'));
    await new Promise((r) => setTimeout(r, 60)); // time bound
    expect(applied).toEqual(['a', 'b', 'c']);
    await q.close();
  });

  it('applies what arrived during a store call at the next interval, as one batch, not at once as a small one', async () => {
    // A store call takes 10 ms (a commit). Entries arrive one per ms: a drain that went on while entries were left
    // sent ~10 entries every 10 ms; batching by the 40 ms interval sends ~40 per call.
    const { store, sizes } = slowStore(10);
    const q = new SettlementQueue(store, { batchSize: 256, flushMs: 40 }, quiet);
    let n = 0;
    const until = Date.now() + 400;
    while (Date.now() < until) {
      q.enqueue(entry(`r${n++}`));
      await new Promise((r) => setTimeout(r, 1));
    }
    // ~400 ms at 40 ms per call, whatever the timer jitter: well under the ~40 calls a continuous drain makes.
    expect(sizes.length).toBeLessThanOrEqual(14);
    await q.flush(); // an explicit flush still empties the queue
    expect(q.pending).toBe(0);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
    await q.close();
  });

  it('keeps entries while the store is unavailable and applies them when it returns (nothing lost)', async () => {
    let down = true;
    const { store, applied } = fakeStore(() => {
      if (down) throw new StoreUnavailableError('down');
    });
    const q = new SettlementQueue(store, { batchSize: 10, flushMs: 5 }, quiet);
    q.enqueue(entry('a'));
    await q.flush();
    expect(q.pending).toBe(1);
    down = false;
    await new Promise((r) => setTimeout(r, 300));
    expect(applied).toEqual(['a']);
    expect(q.pending).toBe(0);
    await q.close();
  });

  it('parks an entry the store rejects outright, without blocking the others', async () => {
    const { store, applied } = fakeStore((batch) => {
      if (batch.some((e) => e.requestId === 'bad')) throw new RangeError('cost must be an integer');
    });
    const q = new SettlementQueue(store, { batchSize: 10, flushMs: 5 }, quiet);
    for (const id of ['a', 'bad', 'b']) q.enqueue(entry(id));
    await q.flush();
    expect(applied).toEqual(['a', 'b']);
    expect(q.parked.map((e) => e.requestId)).toEqual(['bad']);
    await q.close();
  });

  it('close() applies the final entries that requests answered in this turn put off until the journal commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-settle-tail-'));
    try {
      const journal = new SettlementJournal(dir, { syncMs: 0 });
      // The store takes its time: close() must have waited for the entry, not merely started it.
      const applied: string[] = [];
      const store = {
        settle: async (batch: SettlementEntry[]) => {
          await new Promise((r) => setTimeout(r, 20));
          applied.push(...batch.map((x) => x.requestId));
          return batch.map((x) => x.requestId);
        },
      } as unknown as Store;
      const q = new SettlementQueue(store, { batchSize: 100, flushMs: 60_000, journal }, quiet);
      const e = entry('r-tail');
      // A response ends: its provisional record waits for the group commit, its final entry for after that.
      let answered = false;
      q.journalThen(e, () => (answered = true));
      q.afterAnswer(() => q.enqueue(e, e));
      // Shutdown in the same turn, before the commit's setImmediate: nothing may be left behind.
      await q.close();
      expect(answered).toBe(true);
      expect(applied).toEqual(['r-tail']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs an error thrown by bookkeeping put off until the journal commit, and still runs the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-settle-tail-'));
    try {
      const journal = new SettlementJournal(dir, { syncMs: 0 });
      const lines: string[] = [];
      const q = new SettlementQueue(fakeStore(() => {}).store, { batchSize: 100, flushMs: 60_000, journal }, new Logger('error', true, (l) => lines.push(l)));
      const ran: string[] = [];
      q.journalThen(entry('r-1'), () => ran.push('answer'));
      q.afterAnswer(() => {
        throw new Error('bookkeeping broke');
      });
      q.afterAnswer(() => ran.push('next'));
      await new Promise((r) => setImmediate(r));
      expect(ran).toEqual(['answer', 'next']);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('bookkeeping after an answer failed');
      expect(lines[0]).toContain('bookkeeping broke');
      await q.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('flushes at once after close (a request that outlived the shutdown grace)', async () => {
    const { store, applied } = fakeStore(() => {});
    const q = new SettlementQueue(store, { batchSize: 100, flushMs: 60_000 }, quiet);
    await q.close();
    q.enqueue(entry('late'));
    await q.flush();
    expect(applied).toEqual(['late']);
  });
});
