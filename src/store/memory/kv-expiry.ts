/**
 * The embedded store's kv entries with their expiry index. Every kv entry that expires has a twin key
 * `[expiresAt, key]` in the `kv-expiry` database, which LMDB keeps ordered by expiry (then key), so a sweep
 * reads only what has expired, oldest first, and never the live entries (stored responses keep 24 h of them:
 * a full scan of `kv` per sweep grew with traffic and ran on the event loop). Redis does the same with key TTLs.
 *
 * Every function here is synchronous and must run inside a write transaction (`root.transaction` /
 * `transactionSync`): the entry and its index change together.
 */
import { CAP_TRIM_PER_WRITE } from '../shared.js';
import type { KvValue, StoreDbs } from './db.js';

/** Writes `key` (replacing any previous value) and moves its index entry, which names the key's capped group if any. */
export function putKv(dbs: StoreDbs, key: string, value: KvValue, group?: string): void {
  const prev = dbs.kv.get(key);
  if (prev?.expiresAt != null && prev.expiresAt !== value.expiresAt) dbs.kvExpiry.removeSync([prev.expiresAt, key]);
  dbs.kv.putSync(key, value);
  if (value.expiresAt !== null) dbs.kvExpiry.putSync([value.expiresAt, key], group ?? true);
}

/** Removes `key` and its index entry. */
export function removeKv(dbs: StoreDbs, key: string): void {
  const prev = dbs.kv.get(key);
  if (prev === undefined) return;
  if (prev.expiresAt !== null) dbs.kvExpiry.removeSync([prev.expiresAt, key]);
  dbs.kv.removeSync(key);
}

/**
 * Writes `key` as the newest entry of `group` and deletes the oldest entries beyond `cap` (kvSetCapped). The group's
 * keys are kept in write order under [group, seq] with a cursor [first, next), so a group never lists more than `cap`
 * keys (more only while a lowered cap converges, CAP_TRIM_PER_WRITE at a time). The sweep that removes an expired
 * entry also drops the gone keys at the head of its group's list (trimGoneHead), and the cursor with the last of them:
 * a group that stops being written to is given back as its entries expire, as Redis expires its list.
 */
export function putKvCapped(dbs: StoreDbs, key: string, value: KvValue, group: string, cap: number): void {
  putKv(dbs, key, value, group);
  const cursor = dbs.kvGroupCursor.get(group) ?? { first: 0, next: 0 };
  dbs.kvGroups.putSync([group, cursor.next], key);
  cursor.next++;
  for (let trimmed = 0; cursor.next - cursor.first > cap && trimmed < CAP_TRIM_PER_WRITE; cursor.first++, trimmed++) {
    const old = dbs.kvGroups.get([group, cursor.first]);
    dbs.kvGroups.removeSync([group, cursor.first]);
    if (old !== undefined) removeKv(dbs, old);
  }
  dbs.kvGroupCursor.putSync(group, cursor);
}

/**
 * Removes at most `limit` entries that expired at or before `now` (oldest first) and returns how many index
 * entries it visited: the cost is that count, whatever the number of live entries. An index entry whose kv
 * entry was since rewritten with another expiry (or none) is dropped without touching the entry.
 */
export function sweepExpiredKv(dbs: StoreDbs, now: number, limit: number): number {
  // Collected first: the range is read from the same write transaction the removals change.
  const due = [...dbs.kvExpiry.getRange({ end: [now + 1], limit })];
  for (const { key: [expiresAt, key], value: group } of due) {
    dbs.kvExpiry.removeSync([expiresAt, key]);
    const v = dbs.kv.get(key);
    if (v !== undefined && v.expiresAt === expiresAt) dbs.kv.removeSync(key);
    if (typeof group === 'string') trimGoneHead(dbs, group);
  }
  return due.length;
}

/**
 * Drops the head of `group`'s list while its keys are gone (expired and swept, deleted, or listed twice), at most
 * CAP_TRIM_PER_WRITE per call, and the group's cursor once the list is empty. Stops at the first key still stored:
 * when a group's entries share a TTL (stored responses do: `responses.ttlMs`) they expire in the order they were
 * written, so the head is where the gone ones are; with mixed TTLs a live head stops the trim and the cap still bounds
 * the list.
 */
function trimGoneHead(dbs: StoreDbs, group: string): void {
  const cursor = dbs.kvGroupCursor.get(group);
  if (cursor === undefined) return;
  const from = cursor.first;
  while (cursor.first < cursor.next && cursor.first - from < CAP_TRIM_PER_WRITE) {
    const listed = dbs.kvGroups.get([group, cursor.first]);
    if (listed !== undefined && dbs.kv.get(listed) !== undefined) break;
    dbs.kvGroups.removeSync([group, cursor.first]);
    cursor.first++;
  }
  if (cursor.first === from) return;
  if (cursor.first === cursor.next) dbs.kvGroupCursor.removeSync(group);
  else dbs.kvGroupCursor.putSync(group, cursor);
}

/**
 * Builds the index for a database written before it existed (one full scan, once, at start; the `meta`
 * flag `kvExpiryIndex` records that it is done). A fresh database is marked without a scan.
 */
export function ensureKvExpiryIndex(dbs: StoreDbs): void {
  if (dbs.meta.get('kvExpiryIndex') === true) return;
  dbs.root.transactionSync(() => {
    if (dbs.meta.get('kvExpiryIndex') === true) return;
    for (const { key, value } of dbs.kv.getRange()) {
      if (value.expiresAt !== null) dbs.kvExpiry.putSync([value.expiresAt, key], true);
    }
    dbs.meta.putSync('kvExpiryIndex', true);
  });
}

/**
 * Expired kv entries removed per LMDB transaction of a sweep (each transaction body is one event-loop turn):
 * ~5 us per entry measured, so 64 hold the loop about 0.3-0.5 ms (256 held it 1.4 ms, more under contention).
 */
export const KV_SWEEP_BATCH = 64;

/**
 * Sweeps until nothing expired at `now` is left, KV_SWEEP_BATCH per transaction; `dbs` gives the open database, or
 * null when the sweep must stop (the store is closing or reopening). Returns how many index entries it visited.
 */
export async function sweepAllExpiredKv(dbs: () => StoreDbs | null, now: number): Promise<number> {
  let visited = 0;
  for (;;) {
    const d = dbs();
    if (d === null) return visited;
    const n = await d.root.transaction(() => sweepExpiredKv(d, now, KV_SWEEP_BATCH));
    visited += n;
    if (n < KV_SWEEP_BATCH) return visited;
  }
}
