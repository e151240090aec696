import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settlementEntry } from '../../helpers/settlement-entry.js';
import type { SettlementEntry, Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { loadMadvise, MapRelease, mappedRanges } from '../../../src/store/memory/map-release.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';
import { remapNow } from '../../../src/store/memory/remap.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-release-'));
  dirs.push(dir);
  return dir;
}

const FILE = '/var/lib/svc/store.lmdb';
const MAPS = [
  `7f99bc000000-7f99fc000000 r--s 00000000 fe:00 2146945                    ${FILE}`,
  `7f9a3804a000-7f9a3804d000 rw-s 00000000 fe:00 2146990                    ${FILE}-lock`,
  `7f9a38050000-7f9a38060000 r--p 00000000 fe:00 2146945                    ${FILE}`,
  `7f9a38070000-7f9a38080000 rw-s 00000000 fe:00 2146945                    ${FILE}`,
  `7f9a38090000-7f9a380a0000 r--s 00000000 fe:00 2146999                    /other${FILE}`,
  '7f9a380b0000-7f9a380c0000 rw-p 00000000 00:00 0 ',
].join('\n');

describe('mappedRanges: which mappings of /proc/self/maps are the database map', () => {
  it('only read-only shared mappings of exactly that file', () => {
    expect(mappedRanges(MAPS, FILE)).toEqual([{ start: 0x7f99bc000000n, end: 0x7f99fc000000n }]);
  });

  it('a path with spaces, and none when the file is not mapped', () => {
    const spaced = '/tmp/my data/store.lmdb';
    expect(mappedRanges(`7f0000000000-7f0000001000 r--s 00000000 fe:00 7 ${spaced}`, spaced)).toEqual([{ start: 0x7f0000000000n, end: 0x7f0000001000n }]);
    expect(mappedRanges(MAPS, '/nowhere/store.lmdb')).toEqual([]);
  });
});

describe('MapRelease', () => {
  const dbFile = (): string => {
    const file = join(tempDir(), 'store.lmdb');
    writeFileSync(file, '');
    return file;
  };

  it('releases every mapping of the file as /proc/self/maps shows it at the call (MADV_DONTNEED), none when unmapped', () => {
    const file = dbFile();
    const line = (start: string, end: string): string => `${start}-${end} r--s 00000000 fe:00 1 ${file}`;
    let maps = line('7f0000000000', '7f0040000000');
    const calls: [bigint, bigint, number][] = [];
    const release = new MapRelease(file, (a, l, advice) => (calls.push([a, l, advice]), 0), () => maps);
    expect(release.release()).toBe(0x40000000);
    expect(calls).toEqual([[0x7f0000000000n, 0x40000000n, 4]]);
    // lmdb grew the map: the file is mapped again and the old mapping kept for readers still in it.
    maps = `${line('7e0000000000', '7e0080000000')}\n${maps}`;
    expect(release.release()).toBe(0xc0000000);
    expect(calls.slice(1)).toEqual([
      [0x7e0000000000n, 0x80000000n, 4],
      [0x7f0000000000n, 0x40000000n, 4],
    ]);
    maps = '';
    expect(release.release()).toBe(0);
    expect(calls).toHaveLength(3);
  });

  it('throws when madvise fails', () => {
    const file = dbFile();
    const maps = `7f0000000000-7f0000001000 r--s 00000000 fe:00 1 ${file}`;
    expect(() => new MapRelease(file, () => -1, () => maps).release()).toThrow(/madvise/);
  });
});

const entry = (i: number, orgs: number): SettlementEntry =>
  settlementEntry({ requestId: `req-${String(i).padStart(8, '0')}`, orgId: `org-${i % orgs}`, cost: 1000 + (i % 7), at: 1_700_000_000_000 + i });

/** Resident KiB of this process's mappings of `file`. */
function residentKiB(file: string): number {
  let kb = 0;
  let inside = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inside = line.endsWith(` ${file}`);
    else if (inside && line.startsWith('Rss:')) kb += Number(/\d+/.exec(line)?.[0] ?? 0);
  }
  return kb;
}

describe.runIf(process.platform === 'linux')('the embedded store with its map released in place', () => {
  it('loads madvise here (koffi), so the gateway never falls back to reopening on this platform', () => {
    expect(loadMadvise().madvise).not.toBeNull();
  });

  it('is not wrapped: store calls go straight to the store, and remapNow releases', async () => {
    const dir = tempDir();
    const store = await createStore({ kind: 'memory', snapshotPath: join(dir, 'store.msgpack') });
    stores.push(store);
    expect(store).toBeInstanceOf(MemoryStore);
    expect(store.settle).toBe(MemoryStore.prototype.settle);
    expect(await remapNow(store)).toBe(true);
  });

  it('releases on its own when file-backed memory grew past the budget, and measures from the new level', async () => {
    const dir = tempDir();
    let rss = 100;
    const events: { ok: boolean; freedBytes: number }[] = [];
    const store = await createStore({
      kind: 'memory',
      snapshotPath: join(dir, 'store.msgpack'),
      remap: { budgetBytes: 50, checkMs: 5, rssFile: () => rss, onRelease: (e) => events.push(e) },
    });
    stores.push(store);
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(0);
    rss = 200; // no write needed: a release leaves nothing behind (a reopen did, remap.ts `wrote`)
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]!.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(1); // 200 is the new baseline
    rss = 300;
    await expect.poll(() => events.length).toBe(2);
    await store.close();
    rss = 1000;
    await new Promise((r) => setTimeout(r, 30));
    expect(events).toHaveLength(2); // closed: the timer stopped
  });

  it('releases every millisecond while 1,000 organizations settle, hold and read: every entry applied once, every page read back intact', async () => {
    const dir = tempDir();
    const orgs = 1000;
    const store = (await createStore({ kind: 'memory', snapshotPath: join(dir, 'store.msgpack'), remap: { budgetBytes: 0, checkMs: 1 } })) as MemoryStore;
    stores.push(store);
    for (let o = 0; o < orgs; o++) await store.topUp(`org-${o}`, 1e12, 'seed');
    const n = 40_000;
    let releases = 0;
    const releasing = setInterval(() => void remapNow(store).then(() => releases++), 1);
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < n; i += 400) {
      work.push(store.settle(Array.from({ length: 400 }, (_, k) => entry(i + k, orgs))));
      work.push(store.getBalance(`org-${i % orgs}`));
      if (i % 4000 === 0) await Promise.all(work.splice(0));
    }
    await Promise.all(work);
    // The same entries again: idempotent by request id, also with the pages released in between.
    await store.settle(Array.from({ length: 400 }, (_, k) => entry(k, orgs)));
    clearInterval(releasing);
    expect(releases).toBeGreaterThan(5);
    const resident = residentKiB(store.dbPath);
    await remapNow(store);
    expect(residentKiB(store.dbPath)).toBeLessThan(Math.max(64, resident / 4));
    for (let o = 0; o < orgs; o += 37) {
      let spent = 0;
      for (let i = o; i < n; i += orgs) spent += 1000 + (i % 7);
      expect((await store.getBalance(`org-${o}`)).balance).toBe(1e12 - spent);
      const ledger = await store.listLedger(`org-${o}`, { limit: 100 });
      expect(ledger).toHaveLength(n / orgs);
      expect(ledger.map((e) => e.requestId).sort()).toEqual(Array.from({ length: n / orgs }, (_, k) => entry(o + k * orgs, orgs).requestId).sort());
    }
  }, 60_000);
});
