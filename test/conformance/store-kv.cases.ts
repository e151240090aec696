/** Contract cases: kv with TTL, fixed-window hit counters, ping. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { uid } from './store-fixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until just after a multiple of windowMs so a short burst of hits lands in one window. */
async function alignToWindow(windowMs: number): Promise<void> {
  await sleep(windowMs - (Date.now() % windowMs) + 2);
}

export function kvCases(get: () => Store): void {
  it('string sets: add is idempotent, remove deletes, members come back sorted, concurrent adds are all kept', async () => {
    const store = get();
    const k = uid('set');
    expect(await store.setMembers(k)).toEqual([]);
    await store.setAdd(k, 'b');
    await store.setAdd(k, 'a');
    await store.setAdd(k, 'b');
    expect(await store.setMembers(k)).toEqual(['a', 'b']);
    await store.setRemove(k, 'b');
    await store.setRemove(k, 'zz');
    expect(await store.setMembers(k)).toEqual(['a']);
    const ids = Array.from({ length: 100 }, (_, i) => `m${String(i).padStart(3, '0')}`);
    await Promise.all(ids.map((id) => store.setAdd(k, id)));
    expect(await store.setMembers(k)).toEqual(['a', ...ids]);
  });

  it('setRemoveKeeping removes only while enough members remain, atomically under concurrency', async () => {
    const store = get();
    const k = uid('owners');
    await store.setAdd(k, 'a');
    await store.setAdd(k, 'b');
    await store.setAdd(k, 'c');
    expect(await store.setRemoveKeeping(k, 'zz', 1)).toBe('absent');
    // Three removals race with one member that must remain: exactly two succeed.
    const results = await Promise.all(['a', 'b', 'c'].map((m) => store.setRemoveKeeping(k, m, 1)));
    expect(results.filter((r) => r === 'removed')).toHaveLength(2);
    expect(results.filter((r) => r === 'refused')).toHaveLength(1);
    expect(await store.setMembers(k)).toHaveLength(1);
  });

  it('stores JSON values, returns copies, overwrites and deletes', async () => {
    const store = get();
    const k = uid('session');
    const value = { user: 'u1', roles: ['admin'], n: 12.5, nested: { ok: true, none: null } };
    expect(await store.kvGet(k)).toBeNull();
    await store.kvSet(k, value);
    const read = await store.kvGet<typeof value>(k);
    expect(read).toEqual(value);
    if (read !== null) read.roles.push('mutated');
    expect(await store.kvGet(k)).toEqual(value);
    await store.kvSet(k, 'plain string');
    expect(await store.kvGet(k)).toBe('plain string');
    await store.kvDel(k);
    await store.kvDel(k);
    expect(await store.kvGet(k)).toBeNull();
  });

  it('expires a value after its TTL, and a later set without TTL keeps it', async () => {
    const store = get();
    const short = uid('kv');
    const kept = uid('kv');
    await store.kvSet(short, 1, 80);
    await store.kvSet(kept, 2, 80);
    await store.kvSet(kept, 3);
    expect(await store.kvGet(short)).toBe(1);
    await sleep(160);
    expect(await store.kvGet(short)).toBeNull();
    expect(await store.kvGet(kept)).toBe(3);
  });

  it('counts hits per key in a fixed window and starts again in the next window', async () => {
    const store = get();
    const a = uid('webhook-reg');
    const b = uid('webhook-reg');
    await alignToWindow(500);
    expect(await store.hit(a, 500)).toBe(1);
    expect(await store.hit(a, 500)).toBe(2);
    expect(await store.hit(b, 500)).toBe(1);
    expect(await store.hit(a, 500)).toBe(3);
    await alignToWindow(500);
    expect(await store.hit(a, 500)).toBe(1);
    expect(await store.hit(b, 500)).toBe(1);
  });

  it('answers ping', async () => {
    expect(await get().ping(500)).toBe(true);
  });
}
