/**
 * The embedded store's kv sweep goes through the expiry index (src/store/memory/kv-expiry.ts): expired entries
 * are removed, live ones kept, a rewrite moves the entry's index, and the sweep reads only what expired, however
 * many live entries there are. The index survives a restart and is built once for a database written before it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDbs, type StoreDbs } from '../../../src/store/memory/db.js';
import { putKv, sweepExpiredKv } from '../../../src/store/memory/kv-expiry.js';
import { KV_SWEEP_BATCH, MemoryStore } from '../../../src/store/memory/memory-store.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const DAY = 24 * 3_600_000;

describe('embedded store kv expiry index', () => {
  let dir: string;
  let snapshotPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-kv-expiry-'));
    snapshotPath = join(dir, 'store.msgpack');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Raw handle on the closed store's database: what is physically there. */
  async function raw<T>(fn: (dbs: StoreDbs) => T): Promise<T> {
    const dbs = openDbs(join(dir, 'store.lmdb'), { durable: false });
    try {
      return fn(dbs);
    } finally {
      await dbs.root.close();
    }
  }

  it('sweeps expired entries in batches, keeps live and rewritten ones, and the index survives a restart', async () => {
    const a = new MemoryStore({ snapshotPath });
    const expired = KV_SWEEP_BATCH * 2 + 7; // more than one batch
    for (let i = 0; i < expired; i++) await a.kvSet(`resp:old:${i}`, { i }, 1);
    for (let i = 0; i < 50; i++) await a.kvSet(`resp:live:${i}`, { i }, DAY);
    await a.kvSet('webhook:1', { url: 'https://example.com' });
    await a.kvSet('moved-to-no-expiry', 1, 1);
    await a.kvSet('moved-to-no-expiry', 2);
    await a.kvSet('moved-later', 1, 1);
    await a.kvSet('moved-later', 2, DAY);
    await a.kvSet('deleted', 1, 1);
    await a.kvDel('deleted');
    await a.setAdd('members', 'u1');
    await sleep(5);
    expect(await a.sweepKv(Date.now())).toBe(expired);
    expect(await a.sweepKv(Date.now())).toBe(0);
    expect(await a.kvGet('moved-to-no-expiry')).toBe(2);
    expect(await a.kvGet('moved-later')).toBe(2);
    expect(await a.kvGet('resp:live:49')).toEqual({ i: 49 });
    await a.kvSet('resp:after-restart', 1, 1);
    await a.close();

    const keys = await raw((dbs) => ({ kv: [...dbs.kv.getKeys()].length, index: [...dbs.kvExpiry.getKeys()].map(([, k]) => k) }));
    // 50 live + webhook + 2 moved + members set + one written before the restart.
    expect(keys.kv).toBe(55);
    expect(keys.index.sort()).toEqual(['moved-later', 'resp:after-restart', ...Array.from({ length: 50 }, (_, i) => `resp:live:${i}`)].sort());

    const b = new MemoryStore({ snapshotPath });
    expect(await b.kvGet('resp:live:0')).toEqual({ i: 0 });
    expect(await b.setMembers('members')).toEqual(['u1']);
    await sleep(5);
    expect(await b.sweepKv(Date.now())).toBe(1);
    expect(await b.sweepKv(Date.now() + 2 * DAY)).toBe(51);
    expect(await b.kvGet('webhook:1')).toEqual({ url: 'https://example.com' });
    expect(await b.kvGet('moved-to-no-expiry')).toBe(2);
    await b.close();
  });

  it('reads only the expired entries, whatever the number of live ones', async () => {
    const dbs = openDbs(join(dir, 'raw.lmdb'), { durable: false });
    const now = Date.now();
    const costOfSweep = (live: number): { visited: number; kvReads: number; scans: number } => {
      dbs.root.transactionSync(() => {
        for (let i = 0; i < live; i++) putKv(dbs, `live:${live}:${i}`, { json: '1', expiresAt: now + DAY });
        for (let i = 0; i < 20; i++) putKv(dbs, `old:${live}:${i}`, { json: '1', expiresAt: now - 1 - i });
      });
      const get = vi.spyOn(dbs.kv, 'get');
      const range = vi.spyOn(dbs.kv, 'getRange');
      const visited = dbs.root.transactionSync(() => sweepExpiredKv(dbs, now, KV_SWEEP_BATCH));
      const r = { visited, kvReads: get.mock.calls.length, scans: range.mock.calls.length };
      get.mockRestore();
      range.mockRestore();
      return r;
    };
    const small = costOfSweep(10);
    const large = costOfSweep(20_000);
    expect(small).toEqual({ visited: 20, kvReads: 20, scans: 0 });
    expect(large).toEqual(small);
    expect([...dbs.kv.getKeys()].length).toBe(20_010);
    await dbs.root.close();
  });

  it('indexes, once at start, a database written before the index existed', async () => {
    await raw((dbs) => {
      dbs.root.transactionSync(() => {
        dbs.meta.putSync('format', 1);
        dbs.kv.putSync('old-session', { json: '1', expiresAt: Date.now() - 1 });
        dbs.kv.putSync('live-session', { json: '2', expiresAt: Date.now() + DAY });
        dbs.kv.putSync('user:1', { json: '3', expiresAt: null });
      });
    });
    const s = new MemoryStore({ snapshotPath });
    expect(await s.sweepKv(Date.now())).toBe(1);
    expect(await s.kvGet('live-session')).toBe(2);
    expect(await s.kvGet('user:1')).toBe(3);
    await s.close();
    expect(await raw((dbs) => [...dbs.kv.getKeys()].sort())).toEqual(['live-session', 'user:1']);
  });

  it('a capped group holds at most its cap on disk: entries, expiry index and group list; across a restart', async () => {
    const a = new MemoryStore({ snapshotPath });
    for (let i = 0; i < 500; i++) await a.kvSetCapped(`responses:{org:o}:r${String(i).padStart(4, '0')}`, { i }, DAY, 'responses:{org:o}', 100);
    await a.close();
    const b = new MemoryStore({ snapshotPath });
    for (let i = 500; i < 550; i++) await b.kvSetCapped(`responses:{org:o}:r${String(i).padStart(4, '0')}`, { i }, DAY, 'responses:{org:o}', 100);
    expect(await b.kvGet('responses:{org:o}:r0449')).toBeNull();
    expect(await b.kvGet('responses:{org:o}:r0450')).toEqual({ i: 450 });
    await b.close();
    const onDisk = await raw((dbs) => ({
      kv: [...dbs.kv.getKeys()].length,
      index: [...dbs.kvExpiry.getKeys()].length,
      group: [...dbs.kvGroups.getKeys()].length,
      cursor: dbs.kvGroupCursor.get('responses:{org:o}'),
    }));
    expect(onDisk).toEqual({ kv: 100, index: 100, group: 100, cursor: { first: 450, next: 550 } });
  });

  it('a group is given back as its entries expire: the sweep drops the gone head of its list, then its cursor', async () => {
    const group = 'responses:{org:o}';
    const key = (i: number): string => `${group}:r${String(i).padStart(4, '0')}`;
    const s = new MemoryStore({ snapshotPath });
    // An organization that stopped storing: more entries than one sweep batch and one trim, all expired.
    for (let i = 0; i < 150; i++) await s.kvSetCapped(key(i), { i }, 1, group, 1000);
    // Another that keeps storing: its expired head goes, its live tail stays.
    for (let i = 0; i < 30; i++) await s.kvSetCapped(`live:${i}`, { i }, 1, 'g:live', 1000);
    for (let i = 30; i < 50; i++) await s.kvSetCapped(`live:${i}`, { i }, DAY, 'g:live', 1000);
    await sleep(5);
    expect(await s.sweepKv(Date.now())).toBe(180);
    // Written again after it was given back: a fresh list, the cap counted from it.
    for (let i = 150; i < 155; i++) await s.kvSetCapped(key(i), { i }, DAY, 'g:again', 3);
    expect(await s.kvGet(key(151))).toBeNull();
    expect(await s.kvGet(key(154))).toEqual({ i: 154 });
    await s.close();
    const onDisk = await raw((dbs) => ({
      kv: [...dbs.kv.getKeys()].length,
      index: [...dbs.kvExpiry.getKeys()].length,
      lists: [...dbs.kvGroups.getKeys()].map(([g]) => g),
      cursors: Object.fromEntries([...dbs.kvGroupCursor.getRange()].map(({ key, value }) => [key, value])),
    }));
    expect(onDisk).toEqual({
      kv: 23,
      index: 23,
      lists: [...Array<string>(3).fill('g:again'), ...Array<string>(20).fill('g:live')],
      cursors: { 'g:again': { first: 2, next: 5 }, 'g:live': { first: 30, next: 50 } },
    });
  });
});
