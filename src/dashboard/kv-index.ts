/**
 * Org-scoped lists kept on the Store: one kv record per item plus one atomic id set per scope, so nodes
 * sharing Redis can add and remove concurrently without losing an id.
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

  list(scope: string): Promise<string[]> {
    return this.store.setMembers(this.#key(scope));
  }

  add(scope: string, id: string): Promise<void> {
    return this.store.setAdd(this.#key(scope), id);
  }

  remove(scope: string, id: string): Promise<void> {
    return this.store.setRemove(this.#key(scope), id);
  }
}

/**
 * Atomic "first caller wins" for a short window, on the Store's fixed-window counter (one round trip on
 * Redis). Used where two nodes could race to create the same thing (an e-mail address, a notice).
 */
export async function claim(store: Store, key: string, windowMs = 10_000): Promise<boolean> {
  return (await store.hit(`claim:${key}`, windowMs)) === 1;
}
