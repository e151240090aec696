/**
 * The embedded store's durability: what a restart keeps (records, balances, top-up keys, spend, ledger, kv),
 * that every write is in the database as soon as its promise resolves (no whole-state snapshot to wait
 * for), and the one-time migration of a snapshot file written by the former msgpackr persistence.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/store/contract.js';
import { MemoryStore } from '../../src/store/memory/memory-store.js';
import { SNAPSHOT_VERSION, snapshotPackr, type SnapshotData } from '../../src/store/memory/snapshot.js';
import { keyRecord, orgRecord, scope, settlement, teamRecord, uid } from './store-fixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('MemoryStore on LMDB', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-lmdb-'));
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
    await a.kvSet('session:2', { user: 'gone' }, 1);
    await a.setAdd('members', 'u2');
    await a.setAdd('members', 'u1');
    const lease = scope('key', key.id, { maxConcurrency: 1 });
    await a.close();

    const b = new MemoryStore({ snapshotPath: path });
    expect(b.migrated).toBeNull();
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
    // A TTL entry lives on until it expires, as it would in Redis.
    expect(await b.kvGet('session:1')).toEqual({ user: 'u' });
    expect(await b.kvGet('session:2')).toBeNull();
    expect(await b.setMembers('members')).toEqual(['u1', 'u2']);
    await b.updateKey(org.id, key.id, { status: 'active' });
    expect((await b.admit({ orgId: org.id, keyId: key.id, requestId: uid('r'), now: Date.now(), tokens: 1, scopes: [lease], leaseTtlMs: 1_000 })).ok).toBe(true);
    await b.close();
    expect(readdirSync(join(dir, 'nested')).sort()).toEqual(['store.lmdb', 'store.lmdb-lock']);
  });

  it('a second handle on the same database sees every acknowledged write at once, without close', async () => {
    const a = new MemoryStore({ snapshotPath: path });
    const org = orgRecord();
    await a.createOrg(org);
    const key = keyRecord(org.id);
    await a.createKey(key);
    await a.topUp(org.id, 7_000, 'evt-1');
    const b = new MemoryStore({ snapshotPath: path });
    expect(await b.getKeyByHash(key.hash)).toEqual(key);
    expect(await b.getBalance(org.id)).toEqual({ balance: 7_000, held: 0 });

    await b.updateKey(org.id, key.id, { status: 'blocked' });
    await b.topUp(org.id, 1_000, 'evt-2');
    await sleep(5); // a's read snapshot is renewed on the next event turn
    expect((await a.getKey(org.id, key.id))?.status).toBe('blocked');
    expect((await a.getBalance(org.id)).balance).toBe(8_000);
    expect(await a.topUp(org.id, 1_000, 'evt-2')).toEqual({ balance: 8_000, held: 0 });
    await b.close();
    await a.close();
  });

  it('admission refuses a key revoked or blocked through another handle (the operator CLI) on the very next request', async () => {
    const a = new MemoryStore({ snapshotPath: path });
    const org = orgRecord();
    await a.createOrg(org);
    const key = keyRecord(org.id);
    await a.createKey(key);
    const admit = () => a.admit({ orgId: org.id, keyId: key.id, requestId: uid('req'), now: Date.now(), tokens: 0, scopes: [], leaseTtlMs: 30_000 });
    expect(await admit()).toEqual({ ok: true });
    expect(await admit()).toEqual({ ok: true }); // the second read is answered from the decoded record
    const b = new MemoryStore({ snapshotPath: path });
    await b.updateKey(org.id, key.id, { status: 'revoked' });
    await sleep(5); // a's read snapshot is renewed on the next event turn
    expect(await admit()).toEqual({ ok: false, kind: 'key_status', status: 'revoked' });
    await b.updateKey(org.id, key.id, { status: 'active' });
    await sleep(5);
    expect(await admit()).toEqual({ ok: true });
    await b.updateKey(org.id, key.id, { status: 'blocked' });
    await sleep(5);
    expect(await admit()).toEqual({ ok: false, kind: 'key_status', status: 'blocked' });
    await b.close();
    await a.close();
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
});

describe('MemoryStore: migration of a former msgpackr snapshot', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A snapshot exactly as the former SnapshotWriter wrote it (version 2, ledger in msgpack chunks). */
  function writeSnapshot(file: string, ledgerCount: number, trimmed: number): { data: SnapshotData; ledger: LedgerEntry[] } {
    const org = orgRecord();
    const team = teamRecord(org.id);
    const key = keyRecord(org.id, { teamId: team.id, status: 'revoked' });
    let balance = 90_000;
    const ledger = Array.from({ length: ledgerCount }, (_, i) => {
      balance -= 10;
      return { ...settlement(org.id, key.id, { cost: 10, at: 1_700_000_000_000 + i }), balanceAfter: balance };
    });
    const data: SnapshotData = {
      v: SNAPSHOT_VERSION,
      orgs: [org],
      teams: [team],
      keys: [key],
      credits: [{ orgId: org.id, balance, topUps: ['evt-1', 'evt-2'] }],
      spend: [{ orgId: org.id, group: 'key', value: key.id, counter: { cost: ledgerCount * 10, requests: ledgerCount, inputTokens: 1, outputTokens: 2 } }],
      ledger: [{ orgId: org.id, trimmed, chunks: [snapshotPackr.pack(ledger.slice(0, 1_024)), snapshotPackr.pack(ledger.slice(1_024))] }],
      kv: [['webhook:1', JSON.stringify({ url: 'https://example.com' })], ['set:members', JSON.stringify(['a', 'b'])]],
    };
    writeFileSync(file, snapshotPackr.pack(data));
    return { data, ledger: ledger.slice(trimmed) };
  }

  it('copies every record, balance, top-up key, counter, ledger entry and kv entry once, then sets the file aside', async () => {
    const file = join(dir, 'store.msgpack');
    const { data, ledger } = writeSnapshot(file, 1_500, 7);
    const [org, key, team] = [data.orgs[0]!, data.keys[0]!, data.teams[0]!];
    const a = new MemoryStore({ snapshotPath: file });
    expect(a.migrated).toEqual({ orgs: 1, keys: 1, ledgerEntries: 1_493 });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.migrated`)).toBe(true);
    expect(await a.getOrg(org.id)).toEqual(org);
    expect(await a.getTeam(org.id, team.id)).toEqual(team);
    expect(await a.getKeyByHash(key.hash)).toEqual(key);
    const balance = data.credits[0]!.balance;
    expect(await a.getBalance(org.id)).toEqual({ balance, held: 0 });
    expect(await a.topUp(org.id, 5, 'evt-2')).toEqual({ balance, held: 0 });
    expect(await a.scopeSpend(org.id, 'key', key.id)).toBe(15_000);
    const listed = await a.listLedger(org.id, { limit: 10_000 });
    expect(listed).toEqual([...ledger].reverse());
    // Migrated ledger entries still guard settle idempotency; new entries continue after them.
    expect(await a.settle([ledger[0]!])).toEqual([]);
    const next = settlement(org.id, key.id, { cost: 1 });
    expect(await a.settle([next])).toEqual([next.requestId]);
    expect((await a.listLedger(org.id, { limit: 1 }))[0]).toEqual({ ...next, balanceAfter: balance - 1 });
    expect(await a.kvGet('webhook:1')).toEqual({ url: 'https://example.com' });
    expect(await a.setMembers('members')).toEqual(['a', 'b']);
    await a.close();

    // A snapshot that reappears later is not applied over a database that already has data.
    writeSnapshot(file, 3, 0);
    const b = new MemoryStore({ snapshotPath: file });
    expect(b.migrated).toBeNull();
    expect(await b.listOrgs()).toEqual([org]);
    await b.close();
  });

  it('refuses a snapshot of an unknown version instead of starting empty', () => {
    const bad = join(dir, 'bad.msgpack');
    writeFileSync(bad, Buffer.from([0x81, 0xa1, 0x76, 0x63])); // {"v": 99}
    expect(() => new MemoryStore({ snapshotPath: bad })).toThrow(/version/);
  });
});
