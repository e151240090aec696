import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settlementEntry } from '../../helpers/settlement-entry.js';
import type { SettlementEntry, Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';
import { READS, remapNow, withRemap } from '../../../src/store/memory/remap.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A durable store as the gateway makes it: its map released in place (map-release.ts), or with `release: false` reopened behind the gate. */
async function durableStore(release = true): Promise<{ store: Store; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-remap-'));
  dirs.push(dir);
  const store = await createStore({ kind: 'memory', snapshotPath: join(dir, 'store.msgpack'), remap: { release } });
  stores.push(store);
  await store.createOrg({ id: 'org-a', name: 'a', status: 'active', createdAt: 1, fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
  await store.topUp('org-a', 1e15, 'seed');
  return { store, dir };
}

const entry = (i: number): SettlementEntry => settlementEntry({ requestId: `req-${i}-${'x'.repeat(24)}`, cost: 1000 + i, tags: ['team=search'] });

/** Resident MiB of this process's mappings of files under `dir` (the LMDB map). */
function mappedMiB(dir: string): number {
  let kb = 0;
  let inside = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inside = line.includes(dir);
    else if (inside && line.startsWith('Rss:')) kb += Number(/\d+/.exec(line)?.[0] ?? 0);
  }
  return kb / 1024;
}

describe.each([
  ['released in place', true],
  ['reopened', false],
])('embedded store, map %s: resident memory kept flat under load', (_mode, release) => {
  it('settles, reads and writes concurrently with repeated releases: nothing lost, nothing applied twice, no call fails', async () => {
    const { store } = await durableStore(release);
    const n = 3000;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < n; i += 50) {
      work.push(store.settle(Array.from({ length: 50 }, (_, k) => entry(i + k))));
      work.push(store.getBalance('org-a'));
      work.push(store.kvSet(`k${i}`, { i }, 60_000));
      if (i % 500 === 0) work.push(remapNow(store).then((ok) => expect(ok).toBe(true)));
    }
    // The same batch again while reopening: settlement stays idempotent by request id.
    work.push(remapNow(store), store.settle(Array.from({ length: 50 }, (_, k) => entry(k))));
    await Promise.all(work);
    const spent = Array.from({ length: n }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    expect((await store.getBalance('org-a')).balance).toBe(1e15 - spent);
    expect(await store.listLedger('org-a', { limit: n + 10 })).toHaveLength(n);
    expect(await store.kvGet('k2950')).toEqual({ i: 2950 });
    expect((await store.getLedgerEntry('org-a', entry(7).requestId))?.cost).toBe(1007);
  });

  it.runIf(process.platform === 'linux')('gives back the file pages the map kept resident', async () => {
    const { store, dir } = await durableStore(release);
    for (let i = 0; i < 20_000; i += 200) await store.settle(Array.from({ length: 200 }, (_, k) => entry(i + k)));
    await store.listLedger('org-a', { limit: 20_000 }); // touch every ledger page
    const before = mappedMiB(dir);
    expect(before).toBeGreaterThan(2);
    await remapNow(store);
    expect(mappedMiB(dir)).toBeLessThan(before / 4);
    expect(await store.listLedger('org-a', { limit: 3 })).toHaveLength(3);
  });
});

describe('embedded store: reopening the database behind a gate (where the map cannot be released in place)', () => {
  it('reopens on its own once file-backed memory grew past the budget and a write came since, then measures from the new level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-remap-'));
    dirs.push(dir);
    let rss = 100;
    const events: { ok: boolean; ms: number; gateMs: number }[] = [];
    const store = withRemap(new MemoryStore({ snapshotPath: null, dbPath: join(dir, 'store.lmdb') }), {
      budgetBytes: 50,
      checkMs: 5,
      rssFile: () => rss,
      onRemap: (e) => events.push(e),
    });
    stores.push(store);
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(0);
    rss = 200; // grew by 100 > 50, but only reads came: a reopen would only cost native memory (remap.ts, `wrote`)
    expect(await store.kvGet('absent')).toBeNull();
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(0);
    await store.kvSet('k', 1);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]!.ok).toBe(true);
    // The time store calls were held is the reopen's part of the whole (the flush before it runs ungated).
    expect(events[0]!.gateMs).toBeGreaterThan(0);
    expect(events[0]!.gateMs).toBeLessThanOrEqual(events[0]!.ms);
    await store.kvSet('k', 2);
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(1); // 200 is the new baseline
    rss = 300; // past the budget again, with the write above since the reopen
    await expect.poll(() => events.length).toBe(2);
    rss = 400;
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(2); // no write since the second reopen
    await store.kvDel('k');
    await expect.poll(() => events.length).toBe(3);
  });

  it('holds calls in two steps: none during the first flush, writes during the second, reads only for the reopen itself', async () => {
    const order: string[] = [];
    const flushes: (() => void)[] = [];
    let reopenDone!: () => void;
    class Fake {
      flushWrites(): Promise<void> {
        order.push('flush');
        return new Promise((r) => flushes.push(r));
      }
      reopenDatabase(): Promise<void> {
        order.push('reopen');
        return new Promise((r) => (reopenDone = r));
      }
      async kvGet(tag: string): Promise<string> {
        order.push(`read ${tag}`);
        return tag;
      }
      async kvSet(tag: string): Promise<string> {
        order.push(`write ${tag}`);
        return tag;
      }
      async close(): Promise<void> {}
    }
    const store = withRemap(new Fake(), { rssFile: () => null });
    const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 10));
    const remapping = remapNow(store);
    await Promise.resolve();
    // The first flush is under way and nothing is held.
    expect(await store.kvGet('1')).toBe('1');
    expect(await store.kvSet('1')).toBe('1');
    flushes[0]!();
    await expect.poll(() => flushes.length).toBe(2);
    // The second flush: writes wait, reads go on.
    const write2 = store.kvSet('2');
    expect(await store.kvGet('2')).toBe('2');
    await settle();
    flushes[1]!();
    await expect.poll(() => order.includes('reopen')).toBe(true);
    // The reopen: reads wait too.
    const read3 = store.kvGet('3');
    await settle();
    expect(order).toEqual(['flush', 'read 1', 'write 1', 'flush', 'read 2', 'reopen']);
    reopenDone();
    expect(await read3).toBe('3');
    expect(await write2).toBe('2');
    await remapping;
    expect(order.slice(6).sort()).toEqual(['read 3', 'write 2']);
    await store.close();
  });

  it('every method READS lets through during the second flush only reads the database: none starts a write transaction', () => {
    const proto = MemoryStore.prototype as unknown as Record<string, unknown>;
    for (const name of READS) {
      const method = proto[name as string];
      expect(typeof method, String(name)).toBe('function');
      expect((method as () => void).toString(), String(name)).not.toMatch(/transaction|putSync|removeSync|\.put\(|\.remove\(/);
    }
    // And the writes are not in it.
    for (const name of ['settle', 'topUp', 'kvSet', 'kvSetCapped', 'kvDel', 'setAdd', 'createKey', 'updateKey', 'updateOrg']) expect(READS.has(name)).toBe(false);
  });

  it('a call that fails leaves the gate consistent: its rejection reaches the caller, and the next reopen does not wait for it', async () => {
    const { store } = await durableStore(false);
    // Rejected inside the store (an invalid amount), and on a closed-over value the store rejects (a bad entry).
    await expect(store.hold({ orgId: 'org-a', requestId: 'r1', amount: -1, now: Date.now(), ttlMs: 1000, budgets: [] })).rejects.toThrow();
    await expect(store.settle([{ ...entry(1), cost: Number.NaN }])).rejects.toThrow();
    // Each wrapped method keeps one wrapper: reading it twice gives the same function.
    expect(store.settle).toBe(store.settle);
    const reopened = await Promise.race([remapNow(store), new Promise<string>((r) => setTimeout(() => r('stuck'), 5_000))]);
    expect(reopened).toBe(true);
    await store.settle([entry(2)]);
    expect((await store.getLedgerEntry('org-a', entry(2).requestId))?.cost).toBe(1002);
  });

  it('a throwaway store is not wrapped unless given remap options (remapNow says so); the gateway gives them', async () => {
    const store = await createStore({ kind: 'memory', snapshotPath: null });
    stores.push(store);
    expect(await remapNow(store)).toBe(false);
    // `store: { snapshotPath: null }` in the gateway's config: its temporary database grows resident pages the same way.
    const events: { ok: boolean }[] = [];
    const gateway = await createStore({ kind: 'memory', snapshotPath: null, remap: { rssFile: () => null, onRemap: (e) => events.push(e) } });
    stores.push(gateway);
    await gateway.kvSet('k', { v: 1 }, 60_000);
    expect(await remapNow(gateway)).toBe(true);
    expect(events).toEqual([expect.objectContaining({ ok: true })]);
    expect(await gateway.kvGet('k')).toEqual({ v: 1 });
  });
});
