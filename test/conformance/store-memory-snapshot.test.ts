/**
 * Memory store persistence: what a clean restart keeps (records, balances, top-up keys, spend, ledger, kv
 * without TTL) and that acknowledged top-ups and key changes reach the disk without waiting for close().
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memory/memory-store.js';
import { keyRecord, orgRecord, scope, settlement, teamRecord, uid } from './store-fixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('MemoryStore snapshot', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-snap-'));
    path = join(dir, 'nested', 'store.msgpack');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('restores records, balances, top-up keys, spend, ledger and kv after close and reopen', async () => {
    const a = new MemoryStore({ snapshotPath: path });
    const org = orgRecord();
    await a.createOrg(org);
    await a.updateOrg(org.id, { rpm: 99 });
    const team = teamRecord(org.id);
    await a.createTeam(team);
    const key = keyRecord(org.id, { teamId: team.id });
    await a.createKey(key);
    await a.updateKey(org.id, key.id, { status: 'revoked' });
    await a.topUp(org.id, 50_000, 'evt-1');
    const heldRid = uid('req');
    await a.hold({ orgId: org.id, requestId: heldRid, amount: 10_000, now: Date.now(), ttlMs: 60_000, budgets: [] });
    const e = settlement(org.id, key.id, { cost: 1_500, teamId: team.id, tags: ['env=prod'] });
    await a.settle([e]);
    await a.kvSet('webhook:1', { url: 'https://example.com/hook' });
    await a.kvSet('session:1', { user: 'u' }, 60_000);
    const lease = scope('key', key.id, { maxConcurrency: 1 });
    await a.close();

    const b = new MemoryStore({ snapshotPath: path });
    expect(await b.getOrg(org.id)).toEqual({ ...org, rpm: 99 });
    expect(await b.listTeams(org.id)).toEqual([team]);
    expect(await b.getKeyByHash(key.hash)).toEqual({ ...key, status: 'revoked' });
    // Holds do not survive a restart; the balance and the settled debit do.
    expect(await b.getBalance(org.id)).toEqual({ balance: 48_500, held: 0 });
    expect(await b.topUp(org.id, 50_000, 'evt-1')).toEqual({ balance: 48_500, held: 0 });
    expect(await b.settle([e])).toEqual([]);
    expect(await b.getLedgerEntry(org.id, e.requestId)).toEqual({ ...e, balanceAfter: 48_500 });
    expect((await b.listLedger(org.id)).map((l) => l.requestId)).toEqual([e.requestId]);
    expect(await b.spend(org.id, 'tag')).toEqual([{ group: 'env=prod', cost: 1_500, requests: 1, inputTokens: 10, outputTokens: 5 }]);
    expect(await b.scopeSpend(org.id, 'team', team.id)).toBe(1_500);
    expect(await b.kvGet('webhook:1')).toEqual({ url: 'https://example.com/hook' });
    expect(await b.kvGet('session:1')).toBeNull();
    await b.updateKey(org.id, key.id, { status: 'active' });
    expect((await b.admit({ orgId: org.id, keyId: key.id, requestId: uid('r'), now: Date.now(), tokens: 1, scopes: [lease], leaseTtlMs: 1_000 })).ok).toBe(true);
    await b.close();
    expect(readdirSync(join(dir, 'nested'))).toEqual(['store.msgpack']);
  });

  it('writes top-ups and key changes within ~50 ms, without close (a crash loses nothing acknowledged)', async () => {
    const a = new MemoryStore({ snapshotPath: path });
    const org = orgRecord();
    await a.createOrg(org);
    const key = keyRecord(org.id);
    await a.createKey(key);
    await a.topUp(org.id, 7_000, 'evt-1');
    await sleep(200);
    const b = new MemoryStore({ snapshotPath: path });
    expect(await b.getKeyByHash(key.hash)).toEqual(key);
    expect(await b.getBalance(org.id)).toEqual({ balance: 7_000, held: 0 });

    await a.updateKey(org.id, key.id, { status: 'blocked' });
    await a.topUp(org.id, 1_000, 'evt-2');
    await sleep(200);
    const c = new MemoryStore({ snapshotPath: path });
    expect((await c.getKey(org.id, key.id))?.status).toBe('blocked');
    expect((await c.getBalance(org.id)).balance).toBe(8_000);
    await Promise.all([b.close(), c.close()]);
    await a.close();
  });

  it('refuses a snapshot of an unknown version instead of starting empty', () => {
    const bad = join(dir, 'bad.msgpack');
    writeFileSync(bad, Buffer.from([0x81, 0xa1, 0x76, 0x63])); // {"v": 99}
    expect(() => new MemoryStore({ snapshotPath: bad })).toThrow(/version/);
  });

  it('restores a trimmed ledger: only the newest ledgerCap entries come back', async () => {
    const a = new MemoryStore({ snapshotPath: path, ledgerCap: 3 });
    const org = orgRecord();
    await a.createOrg(org);
    const entries = Array.from({ length: 5 }, (_, i) => settlement(org.id, 'k1', { cost: i + 1 }));
    for (const e of entries) await a.settle([e]);
    await a.close();
    const b = new MemoryStore({ snapshotPath: path, ledgerCap: 3 });
    const ids = entries.map((e) => e.requestId);
    expect((await b.listLedger(org.id)).map((e) => e.requestId)).toEqual(ids.slice(2).reverse());
    expect(await b.getLedgerEntry(org.id, ids[1] ?? '')).toBeNull();
    expect(await b.settle(entries.slice(2))).toEqual([]);
    expect(await b.getBalance(org.id)).toEqual({ balance: -15, held: 0 });
    await b.close();
  });

  it('restores a ledger trimmed across chunk boundaries after an earlier snapshot cached full chunks', async () => {
    const a = new MemoryStore({ snapshotPath: path, ledgerCap: 1_500 });
    const org = orgRecord();
    await a.createOrg(org);
    const entries = Array.from({ length: 2_500 }, () => settlement(org.id, 'k1', { cost: 1 }));
    await a.settle(entries.slice(0, 1_100));
    await a.topUp(org.id, 10_000, 'evt-1'); // a prompt snapshot: the first 1024-entry chunk is encoded and cached
    await sleep(150);
    for (let i = 1_100; i < 2_500; i += 200) await a.settle(entries.slice(i, i + 200));
    await a.close();
    // Reopened with a larger cap: exactly the entries that were listed come back, none of the trimmed ones.
    const b = new MemoryStore({ snapshotPath: path, ledgerCap: 5_000 });
    const listed = (await b.listLedger(org.id, { limit: 5_000 })).map((e) => e.requestId);
    expect(listed).toEqual(entries.slice(1_000).map((e) => e.requestId).reverse());
    expect(await b.getLedgerEntry(org.id, entries[999]?.requestId ?? '')).toBeNull();
    expect(await b.settle(entries.slice(1_000, 1_010))).toEqual([]);
    expect(await b.getBalance(org.id)).toEqual({ balance: 7_500, held: 0 });
    await b.close();
  });
});
