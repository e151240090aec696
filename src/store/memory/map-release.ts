/**
 * Gives the embedded store's resident file pages back without closing the database: madvise(MADV_DONTNEED) on
 * LMDB's memory map, called in libc through koffi (an FFI with prebuilt binaries; nothing is compiled here).
 *
 * Every page of store.lmdb the process reads through the map stays in its resident set until the map goes away,
 * with the kernel's fault-around mapping the 64 KiB around each faulting page as well (1,000 random reads of a
 * 107 MiB file: 63 MiB resident; MADV_RANDOM does not change it). remap.ts gives them back by closing and reopening
 * the database, which holds every store call while it runs and puts a promise in front of each one. MADV_DONTNEED on
 * a shared file mapping only drops this process's page-table entries: the pages stay in the page cache, the file is
 * untouched, and the next read of a page maps it again (a minor fault). LMDB maps its file read-only and shared
 * (no MDB_WRITEMAP), so nothing it holds can be lost, and a reader on another thread faults the page back in.
 *
 * The map's address is read from /proc/self/maps (lmdb does not expose it) right before each call, and only a
 * read-only shared mapping of exactly the database file is released. No such range can become anything else while
 * the store is open: when the file outgrows the map (db.ts: 1 GiB, doubled when needed), lmdb maps the file again and
 * keeps the old mapping for readers still in it (mdb_env_set_mapsize, an lmdb-js change: the munmap is commented out),
 * so mappings of the file are only removed when the environment closes, and the store stops releasing before that
 * (close() sets `closed` before it awaits anything; a release runs synchronously on the event loop).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';

const MADV_DONTNEED = 4;

type Madvise = (addr: bigint, len: bigint, advice: number) => number;

/** A mapped range of the database file. */
export interface MapRange {
  start: bigint;
  end: bigint;
}

let loaded: { madvise: Madvise | null; reason?: string } | undefined;

/** libc's madvise through koffi, or null with the reason (not Linux, koffi not loadable, no libc.so.6: musl). */
export function loadMadvise(): { madvise: Madvise | null; reason?: string } {
  loaded ??= load();
  return loaded;
}

function load(): { madvise: Madvise | null; reason?: string } {
  if (process.platform !== 'linux') return { madvise: null, reason: `platform ${process.platform}` };
  try {
    const koffi = createRequire(import.meta.url)('koffi') as { load(path: string): { func(proto: string): Madvise } };
    return { madvise: koffi.load('libc.so.6').func('int madvise(uintptr_t addr, size_t len, int advice)') };
  } catch (e) {
    return { madvise: null, reason: (e as Error).message };
  }
}

/**
 * The read-only shared mappings of `file` in `maps` (the text of /proc/self/maps). A mapping line is
 * `start-end perms offset dev inode path`; the path is the rest of the line (it may hold spaces).
 */
export function mappedRanges(maps: string, file: string): MapRange[] {
  const ranges: MapRange[] = [];
  for (const line of maps.split('\n')) {
    if (!line.endsWith(file)) continue;
    const fields = line.split(' ').filter((f) => f !== '');
    if (fields.length < 6 || fields.slice(5).join(' ') !== file) continue;
    const [addr, perms] = fields as [string, string];
    // r--s: readable, not writable, shared. A private or writable mapping is never released.
    if (perms[0] !== 'r' || perms[1] !== '-' || perms[3] !== 's') continue;
    const [start, end] = addr.split('-');
    if (start === undefined || end === undefined) continue;
    ranges.push({ start: BigInt(`0x${start}`), end: BigInt(`0x${end}`) });
  }
  return ranges;
}

/** Releases the resident pages of one database file's map; see the module comment. */
export class MapRelease {
  readonly #file: string;
  readonly #madvise: Madvise;
  readonly #readMaps: () => string;

  /** `file`: the database file as mapped (resolved to its real path); `readMaps` for tests. */
  constructor(file: string, madvise: Madvise, readMaps: () => string = () => readFileSync('/proc/self/maps', 'utf8')) {
    this.#file = realpathSync(file);
    this.#madvise = madvise;
    this.#readMaps = readMaps;
  }

  /** Drops the map's resident pages. Returns the bytes of address space released (0: not mapped); throws when madvise fails. */
  release(): number {
    let bytes = 0;
    for (const { start, end } of mappedRanges(this.#readMaps(), this.#file)) {
      if (this.#madvise(start, end - start, MADV_DONTNEED) !== 0) throw new Error(`madvise(MADV_DONTNEED) failed on ${this.#file}`);
      bytes += Number(end - start);
    }
    return bytes;
  }
}

/** What a store needs to have its map released on a timer. */
export interface ReleasableStore {
  /** The LMDB database file (db.ts). */
  readonly dbPath: string;
  readonly closed: boolean;
  /** False while the map is being closed or reopened: no release then. */
  readonly mapped: boolean;
}

export interface ReleaseOptions {
  /** Growth of file-backed resident memory since the last release that triggers one (default 4 MiB). */
  budgetBytes?: number;
  /** How often the growth is checked (default 100 ms: one read of /proc/self/status, ~20 us). */
  checkMs?: number;
  /** Reports each release and each failure (after ten failures in a row, releases stop). */
  onRelease?: (event: { ok: boolean; ms: number; freedBytes: number; error?: string }) => void;
  /** Reads the process's file-backed resident bytes (remap.ts rssFileBytes; tests give their own); null: unreadable. */
  rssFile: () => number | null;
}

/**
 * Releases `store`'s map whenever the process's file-backed resident memory has grown by more than the budget, until
 * the store is closed. Returns a function releasing at once (remapNow), or why it cannot (the caller falls back to
 * reopening, remap.ts). No store call is held or wrapped: a release takes ~0.1-1 ms on the
 * event loop and the pages read next fault back in.
 */
export function startMapRelease(
  store: ReleasableStore,
  opts: ReleaseOptions,
): { release: () => Promise<void> } | { release: null; reason: string } {
  const { madvise, reason } = loadMadvise();
  if (opts.rssFile() === null) return { release: null, reason: "/proc/self/status cannot be read: the map's resident pages are not given back here" };
  if (madvise === null) {
    const why = reason ?? 'unknown';
    return { release: null, reason: `madvise cannot be called (${why}): the map is reopened to give its pages back, holding store calls a few ms each time` };
  }
  const releaser = new MapRelease(store.dbPath, madvise);
  const budget = opts.budgetBytes ?? 4 * 1024 * 1024;
  let baseline = opts.rssFile() ?? 0;
  /** Failures in a row: a release that fails is reported and tried again at the next check, ten times at most. */
  let failures = 0;
  const release = (): void => {
    if (!store.mapped || failures >= 10) return;
    const started = performance.now();
    const before = opts.rssFile() ?? 0;
    try {
      releaser.release();
    } catch (e) {
      failures++;
      opts.onRelease?.({ ok: false, ms: performance.now() - started, freedBytes: 0, error: (e as Error).message });
      return;
    }
    failures = 0;
    baseline = opts.rssFile() ?? 0;
    opts.onRelease?.({ ok: true, ms: performance.now() - started, freedBytes: Math.max(0, before - baseline) });
  };
  const timer = setInterval(() => {
    if (store.closed || failures >= 10) return clearInterval(timer);
    const now = opts.rssFile();
    if (now !== null && now - baseline > budget) release();
  }, opts.checkMs ?? 100).unref();
  return { release: async () => release() };
}
