/**
 * Store factory: the embedded store (single node, LMDB database + bounded in-memory hot state) or Redis
 * (many nodes).
 */
import type { Store } from './contract.js';
import { LocalInvalidationBus, type InvalidationBus } from './invalidation.js';
import { MemoryStore } from './memory/memory-store.js';
import { keepMapBounded, type RemapOptions } from './memory/remap.js';

export type StoreOptions =
  | { kind: 'memory'; snapshotPath: string | null; dbPath?: string; ledgerCap?: number; remap?: RemapOptions }
  | { kind: 'redis'; url: string; commandTimeoutMs?: number; connectTimeoutMs?: number; ledgerCap?: number };

/** Redis: resolves once connected and every script is loaded; rejects with StoreUnavailableError otherwise. */
export async function createStore(opts: StoreOptions): Promise<Store> {
  // The embedded store keeps its resident memory flat by giving its map's pages back (memory/remap.ts): a durable
  // one always, a throwaway one (no snapshotPath: a database in a temporary folder) when given remap options, as the
  // gateway gives them (its pages grow the same way: 39 MiB of RSS after ~80k requests without it).
  if (opts.kind === 'memory') {
    const throwaway = opts.snapshotPath === null && opts.dbPath === undefined;
    return throwaway && opts.remap === undefined ? new MemoryStore(opts) : keepMapBounded(new MemoryStore(opts), opts.remap);
  }
  // Imported only for Redis: ioredis and its dependencies are ~10 MiB of resident memory a gateway on the
  // embedded store would otherwise carry.
  const { RedisStore } = await import('./redis/redis-store.js');
  return RedisStore.connect(opts);
}

/** Both stores own a bus (memory: in-process; Redis: pub/sub); a test double does not. */
function ownsBus(store: Store): store is Store & { invalidationBus(): InvalidationBus } {
  return typeof (store as { invalidationBus?: unknown }).invalidationBus === 'function';
}

/** The store's key-cache invalidation bus; any other Store (a test double) gets a private in-process bus. */
export function invalidationBus(store: Store): InvalidationBus {
  if (ownsBus(store)) return store.invalidationBus();
  let bus = fallbackBuses.get(store);
  if (bus === undefined) fallbackBuses.set(store, (bus = new LocalInvalidationBus()));
  return bus;
}
const fallbackBuses = new WeakMap<Store, InvalidationBus>();

export { StoreUnavailableError } from './contract.js';
export type * from './contract.js';
