/**
 * Keeps the embedded store's resident memory flat. LMDB serves reads from a memory map, and every file page
 * the process has touched (the kernel maps neighbours of a touched page too) stays in its resident set until
 * the map goes away: a sustained run grows RSS by ~0.8 KB per settled request (the ledger and its indexes)
 * although nothing is retained on the heap. The pages are clean page cache, but an operator sees RSS grow.
 *
 * Where libc's madvise can be called (Linux with koffi's prebuilt binary), keepMapBounded below releases the pages in
 * place instead (map-release.ts): nothing is held or wrapped. The rest of this module is the fallback for where it
 * cannot: the database is reopened (closed and mapped afresh) whenever the process's file-backed resident memory
 * has grown by more than `budgetBytes` since the last reopen. The pending writes are first flushed with the gate
 * open; then store calls made meanwhile wait at a gate while the map is closed and opened again, calls already
 * running finish first, and nothing is lost (close() waits for every write to commit). The close unmaps the file in one
 * call (db.ts maps it once, not in chunks) and the open maps it again, so the gate holds calls for a few ms per reopen (median 3-5, at most 17 in a 20-minute soak)
 * (docs/memory.md, "What a reopen holds"). Linux only (it reads /proc/self/status); elsewhere nothing happens.
 */
import { readFileSync } from 'node:fs';
import { startMapRelease, type ReleasableStore, type ReleaseOptions } from './map-release.js';

export interface Reopenable {
  /** Closes the database after its pending writes and opens it again. */
  reopenDatabase(): Promise<void>;
  /**
   * Resolves once the writes made so far are committed and flushed to disk. Awaited before the gate closes:
   * closing the database waits for its last commit's flush (an fsync, tens of milliseconds on a busy disk),
   * and every store call would wait at the gate meanwhile; after this, close() has little or nothing to wait for.
   */
  flushWrites?(): Promise<void>;
}

export interface RemapOptions {
  /**
   * Growth of file-backed resident memory that triggers a reopen (default 8 MiB). 60 s soaks at 256 connections,
   * same machine: 16 MiB peaked at 167 MiB of RSS, 8 MiB at 157, with the same throughput and p99 (a reopen every
   * ~5 s at ~2,000 req/s, every ~30 s at 500 req/s; its gate holds store calls for a few ms).
   */
  budgetBytes?: number;
  /**
   * How often the growth is checked (default 1 s: one read of /proc/self/status). The map keeps growing between two
   * checks, so the interval is overshoot on top of the budget: streaming at 64 connections it grew ~0.7 MiB/s, and
   * with 5 s checks the file-backed part peaked ~11 MiB over its base instead of ~8.
   */
  checkMs?: number;
  /** Reports each reopen (and failures): `ms` in all; of it, `gateMs` with every store call held, `writeGateMs` with writes held. */
  onRemap?: (event: { ok: boolean; ms: number; gateMs: number; writeGateMs: number; freedBytes: number; error?: string }) => void;
  /** Reads file-backed resident bytes (tests); default /proc/self/status RssFile, null where unreadable. */
  rssFile?: () => number | null;
  /** keepMapBounded: reports each release in place (map-release.ts; budget 4 MiB and checks every 100 ms unless given). */
  onRelease?: ReleaseOptions['onRelease'];
  /** keepMapBounded: why the map is reopened instead of released in place. */
  onFallback?: (reason: string) => void;
  /** keepMapBounded: false reopens even where the map could be released in place (tests). */
  release?: boolean;
}

/** File-backed resident bytes of this process (RssFile), or null where /proc is not available. */
export function rssFileBytes(): number | null {
  try {
    const m = /RssFile:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Methods that never touch the database (synchronous or purely in-memory); everything else waits at the gate. */
const UNGATED = new Set<PropertyKey>(['invalidationBus', 'constructor']);

/**
 * MemoryStore methods that only read the database or change in-memory state (no write transaction): they wait only
 * for the reopen itself, not for the flush before it. Any other method is a write (test/unit/store/remap.test.ts
 * checks this list against the store's source).
 */
export const READS = new Set<PropertyKey>([
  'getOrg',
  'listOrgs',
  'getTeam',
  'listTeams',
  'getKeyByHash',
  'getKey',
  'listKeys',
  'kvGet',
  'setMembers',
  'hit',
  'admit',
  'releaseLeases',
  'getBalance',
  'hold',
  'releaseHold',
  'listLedger',
  'getLedgerEntry',
  'spend',
  'scopeSpend',
  'ping',
]);

/** Store calls of one kind (reads or writes) in flight, and the gate that holds new ones during a reopen. */
class Lane {
  gate: Promise<void> | null = null;
  inflight = 0;
  #open: (() => void) | null = null;
  #drained: (() => void) | null = null;

  shut(): void {
    this.gate = new Promise<void>((r) => (this.#open = r));
  }

  open(): void {
    const open = this.#open;
    this.gate = null;
    this.#open = null;
    open?.();
  }

  /** Resolves once no call of this lane is in flight. */
  drain(): Promise<void> {
    return this.inflight === 0 ? Promise.resolve() : new Promise<void>((r) => (this.#drained = r));
  }

  leave(): void {
    if (--this.inflight === 0 && this.#drained !== null) {
      const d = this.#drained;
      this.#drained = null;
      d();
    }
  }
}

/**
 * `store` behind a gate that lets the database be reopened under load. Returns the gated store and a stop
 * function (also called by the store's close()).
 *
 * A reopen holds store calls in two steps. The pending writes are flushed first with every call going on; then new
 * writes are held and what was written meanwhile is flushed while reads still go on (closing the database waits for
 * its last commit's flush); only then are reads held too, for the close and the open (~1 ms and a few ms: one
 * mapping, see db.ts; a chunked map took 20-50 ms to close, docs/memory.md). Reads (READS) are what a request waits for
 * before its answer; writes (settlement, stored responses)
 * come after it.
 */
export function withRemap<S extends Reopenable & { close(): Promise<void> }>(store: S, opts: RemapOptions = {}): S {
  const budget = opts.budgetBytes ?? 8 * 1024 * 1024;
  const readRss = opts.rssFile ?? rssFileBytes;
  let baseline = readRss();
  const reads = new Lane();
  const writes = new Lane();
  let stopped = false;
  /**
   * Whether a write went to the database since the last reopen. Without one, growth is not reopened: closing and
   * opening an lmdb 3.5.6 environment that no transaction wrote to leaves ~90 KB behind each time (2,000 reopens,
   * bench/load/lmdb-reopen.ts REOPEN_WRITE=none: brk heap +68 KB, other anonymous memory +19 KB, nearly all V8 heap,
   * linear), while with the gateway's settlements between two reopens nothing is left (closeDbs in db.ts; docs/memory.md,
   * "Reopens and native memory"). Read-only growth (a dashboard paging through a large ledger on an
   * idle gateway) would then reopen again and again for nothing but that loss; its file pages are bounded by the
   * database file, which the ledger cap bounds. Set when a write call enters (not when it is made): a write held at the
   * gate during a reopen enters after it and counts for the reopened map.
   */
  let wrote = false;

  let running: Promise<void> | null = null;
  /** One reopen at a time: a second request while one runs joins it. */
  const remap = (): Promise<void> => (running ??= reopen().finally(() => (running = null)));
  const reopen = async (): Promise<void> => {
    const started = performance.now();
    // Outside the gate: store calls keep running while the pending writes reach the disk.
    await store.flushWrites?.().catch(() => undefined);
    writes.shut();
    const writesHeld = performance.now();
    let held = writesHeld;
    try {
      await writes.drain();
      await store.flushWrites?.().catch(() => undefined);
      wrote = false; // writes are held and drained: any that enters later goes to the reopened map
      reads.shut();
      held = performance.now();
      await reads.drain();
      const before = readRss() ?? 0;
      await store.reopenDatabase();
      baseline = readRss();
      const now = performance.now();
      opts.onRemap?.({ ok: true, ms: now - started, gateMs: now - held, writeGateMs: now - writesHeld, freedBytes: Math.max(0, before - (baseline ?? 0)) });
    } catch (e) {
      const now = performance.now();
      opts.onRemap?.({ ok: false, ms: now - started, gateMs: now - held, writeGateMs: now - writesHeld, freedBytes: 0, error: (e as Error).message });
    } finally {
      reads.open();
      writes.open();
    }
  };

  const check = (): void => {
    if (stopped || !wrote || writes.gate !== null || baseline === null) return;
    const now = readRss();
    if (now !== null && now - baseline > budget) void remap();
  };
  const timer = setInterval(check, opts.checkMs ?? 1_000).unref();

  type Method = (...args: unknown[]) => Promise<unknown>;
  /** A store call counted in flight in its lane until it settles (a reopen waits for it). */
  const enter = (lane: Lane, method: Method, args: unknown[]): Promise<unknown> => {
    lane.inflight++;
    if (lane === writes) wrote = true;
    let result: Promise<unknown>;
    try {
      result = method.apply(store, args);
    } catch (e) {
      lane.leave();
      return Promise.reject(e);
    }
    return result.then(
      (value) => {
        lane.leave();
        return value;
      },
      (error: unknown) => {
        lane.leave();
        throw error;
      },
    );
  };
  const waitThenEnter = async (lane: Lane, method: Method, args: unknown[]): Promise<unknown> => {
    while (lane.gate !== null) await lane.gate;
    return enter(lane, method, args);
  };

  // One wrapper per method, made on first use: a store call costs one extra promise while no reopen runs.
  const wrappers = new Map<PropertyKey, unknown>();
  const gated = new Proxy(store, {
    get(target, prop) {
      const known = wrappers.get(prop);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as Method;
      let wrapper: unknown;
      // Called on the store itself, never on the proxy: its private fields belong to the store.
      if (UNGATED.has(prop)) wrapper = method.bind(target);
      else if (prop === 'close') {
        wrapper = async () => {
          stopped = true;
          clearInterval(timer);
          while (writes.gate !== null) await writes.gate;
          return method.call(target);
        };
      } else {
        const lane = READS.has(prop) ? reads : writes;
        wrapper = (...args: unknown[]) => (lane.gate === null ? enter(lane, method, args) : waitThenEnter(lane, method, args));
      }
      wrappers.set(prop, wrapper);
      return wrapper;
    },
  });
  remappers.set(gated, remap);
  return gated;
}

const remappers = new WeakMap<object, () => Promise<void>>();

/**
 * Keeps `store`'s resident file pages bounded: released in place where madvise can be called (map-release.ts; no
 * store call is held or wrapped), else by reopening the database behind a gate (withRemap).
 */
export function keepMapBounded<S extends Reopenable & ReleasableStore & { close(): Promise<void> }>(store: S, opts: RemapOptions = {}): S {
  const rssFile = opts.rssFile ?? rssFileBytes;
  if (opts.release !== false) {
    const started = startMapRelease(store, { rssFile, budgetBytes: opts.budgetBytes, checkMs: opts.checkMs, onRelease: opts.onRelease });
    if (started.release !== null) {
      remappers.set(store, started.release);
      return store;
    }
    opts.onFallback?.(started.reason);
  }
  return withRemap(store, opts);
}

/** Gives a store made by keepMapBounded or withRemap its map pages back now (tests, tools); false for any other store. */
export async function remapNow(store: object): Promise<boolean> {
  const remap = remappers.get(store);
  if (remap === undefined) return false;
  await remap();
  return true;
}
