/** Contract cases: kv with TTL, fixed-window hit counters, ping. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { CAP_TRIM_PER_WRITE } from '../../src/store/shared.js';
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

  it('kvSetCapped keeps the newest `cap` entries of a group, deleting the oldest as it writes', async () => {
    const store = get();
    const group = `capped:{${uid('org')}}`;
    const keys = Array.from({ length: 5 }, (_, i) => `${group}:k${i}`);
    for (const [i, k] of keys.entries()) await store.kvSetCapped(k, { i }, 60_000, group, 3);
    expect(await Promise.all(keys.map((k) => store.kvGet(k)))).toEqual([null, null, { i: 2 }, { i: 3 }, { i: 4 }]);
    // Another group is not touched by this one's cap; a plain kvSet is in no group.
    const other = `capped:{${uid('org')}}`;
    await store.kvSetCapped(`${other}:a`, 'a', 60_000, other, 1);
    await store.kvSet(`${group}:plain`, 'p', 60_000);
    await store.kvSetCapped(`${group}:k5`, { i: 5 }, 60_000, group, 3);
    expect(await store.kvGet(`${other}:a`)).toBe('a');
    expect(await store.kvGet(`${group}:plain`)).toBe('p');
    expect(await store.kvGet(keys[2]!)).toBeNull();
    await expect(store.kvSetCapped(`${group}:x`, 1, 60_000, group, 0)).rejects.toThrow(RangeError);
    await expect(store.kvSetCapped(`${group}:x`, 1, 0, group, 3)).rejects.toThrow(RangeError);
  });

  it('kvSetCapped under concurrency: 40 writers into a group of 10 leave exactly 10 entries; TTLs still apply', async () => {
    const store = get();
    const group = `capped:{${uid('org')}}`;
    const keys = Array.from({ length: 40 }, (_, i) => `${group}:k${i}`);
    await Promise.all(keys.map((k, i) => store.kvSetCapped(k, i, 60_000, group, 10)));
    const kept = (await Promise.all(keys.map((k) => store.kvGet(k)))).filter((v) => v !== null);
    expect(kept).toHaveLength(10);
    // The group goes on from there: ten more writes replace exactly those ten.
    const more = Array.from({ length: 10 }, (_, i) => `${group}:m${i}`);
    await Promise.all(more.map((k, i) => store.kvSetCapped(k, i, 80, group, 10)));
    expect((await Promise.all(keys.map((k) => store.kvGet(k)))).filter((v) => v !== null)).toHaveLength(0);
    expect((await Promise.all(more.map((k) => store.kvGet(k)))).filter((v) => v !== null)).toHaveLength(10);
    await sleep(160);
    expect((await Promise.all(more.map((k) => store.kvGet(k)))).filter((v) => v !== null)).toHaveLength(0);
  });

  it('kvSetCapped with a lowered cap deletes at most CAP_TRIM_PER_WRITE per write and converges to the new cap', async () => {
    const store = get();
    const group = `capped:{${uid('org')}}`;
    const live = async (keys: string[]): Promise<number> => (await Promise.all(keys.map((k) => store.kvGet(k)))).filter((v) => v !== null).length;
    const keys = Array.from({ length: 150 }, (_, i) => `${group}:k${i}`);
    for (const k of keys) await store.kvSetCapped(k, 1, 60_000, group, 150);
    await store.kvSetCapped(`${group}:n0`, 1, 60_000, group, 10);
    // 151 written, 64 deleted (the oldest), 87 left.
    expect(await live(keys)).toBe(150 - CAP_TRIM_PER_WRITE);
    expect(await store.kvGet(keys[CAP_TRIM_PER_WRITE - 1]!)).toBeNull();
    expect(await store.kvGet(keys[CAP_TRIM_PER_WRITE]!)).toBe(1);
    await store.kvSetCapped(`${group}:n1`, 1, 60_000, group, 10);
    await store.kvSetCapped(`${group}:n2`, 1, 60_000, group, 10);
    // 153 written: everything but the newest 10 is gone, the three new ones among them.
    expect(await live(keys)).toBe(7);
    expect(await live([`${group}:n0`, `${group}:n1`, `${group}:n2`])).toBe(3);
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
