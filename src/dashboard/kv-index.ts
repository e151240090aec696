/**
 * Org-scoped lists kept on the Store's generic kv: one record per item plus one id-list per scope.
 *
 * The Store has no list or compare-and-set primitive for kv, so index updates are read-modify-write.
 * Within one process they are serialised per index key; across processes sharing Redis two concurrent
 * updates of the same index can lose one id (documented weakness, see the issue 5 report).
 */
import type { Store } from '../store/contract.js';

const chains = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same `key` in this process has finished. */
export function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

export class KvIndex {
  constructor(
    private readonly store: Store,
    private readonly prefix: string,
  ) {}

  #key(scope: string): string {
    return `${this.prefix}:${scope}`;
  }

  async list(scope: string): Promise<string[]> {
    return (await this.store.kvGet<string[]>(this.#key(scope))) ?? [];
  }

  add(scope: string, id: string): Promise<void> {
    const key = this.#key(scope);
    return serialised(key, async () => {
      const ids = (await this.store.kvGet<string[]>(key)) ?? [];
      if (!ids.includes(id)) await this.store.kvSet(key, [...ids, id]);
    });
  }

  remove(scope: string, id: string): Promise<void> {
    const key = this.#key(scope);
    return serialised(key, async () => {
      const ids = (await this.store.kvGet<string[]>(key)) ?? [];
      if (ids.includes(id)) await this.store.kvSet(key, ids.filter((x) => x !== id));
    });
  }
}

/**
 * Atomic "first caller wins" for a short window, on the Store's fixed-window counter (one round trip on
 * Redis). Used where two nodes could race to create the same thing (an e-mail address, a notice).
 */
export async function claim(store: Store, key: string, windowMs = 10_000): Promise<boolean> {
  return (await store.hit(`claim:${key}`, windowMs)) === 1;
}
