/**
 * Bodies of the embedded store's write transactions. Each runs inside one LMDB write transaction (reads see
 * the transaction's own writes, and LMDB's single writer lock serialises it against every other process), so
 * each is atomic exactly like its Lua script on Redis. They never throw for an expected refusal: a thrown
 * error would abort the whole batch of callbacks committed with it; the caller turns the result into one.
 */
import type { Database } from 'lmdb';
import type { KeyRecord, OrgRecord, SettlementEntry, SpendGroup, TeamRecord } from '../contract.js';
import type { NanoUsd } from '../../billing/money.js';
import { spendTargets } from '../shared.js';
import type { Account, Counter, StoreDbs } from './db.js';
import { putKv, removeKv } from './kv-expiry.js';
import { encodeLedgerEntry, ledgerRequestId } from './ledger-codec.js';

type SpendKey = [orgId: string, group: SpendGroup, value: string];

/**
 * putSync with LMDB's MDB_NOOVERWRITE: false, and nothing written, when the key exists. lmdb's README documents
 * putSync's boolean; its type declaration says void.
 */
function putIfAbsent<V, K extends string | number | (string | number)[]>(db: Database<V, K>, key: K, value: V): boolean {
  const written: unknown = db.putSync(key, value, { noOverwrite: true });
  return written === true;
}

export function emptyAccount(): Account {
  return { balance: 0, next: 0, first: 0 };
}

export function accountOf(dbs: StoreDbs, orgId: string): Account {
  return dbs.accounts.get(orgId) ?? emptyAccount();
}

/** Adds credit once per idempotency key; returns the balance after. */
export function applyTopUp(dbs: StoreDbs, orgId: string, amount: NanoUsd, idempotencyKey: string): NanoUsd {
  const acct = accountOf(dbs, orgId);
  if (dbs.topUps.get([orgId, idempotencyKey]) !== undefined) return acct.balance;
  dbs.topUps.putSync([orgId, idempotencyKey], true);
  acct.balance += amount;
  dbs.accounts.putSync(orgId, acct);
  return acct.balance;
}

/**
 * A batch's spend counters, each read once and written once per batch (a batch's entries mostly share key, model
 * and day). Looked up by org, group and value in nested maps rather than by one joined string: a joined key is a new
 * string per entry that V8 hashes in full, while the org, key and model ids are strings it has hashed already.
 */
class BatchCounters {
  readonly #dbs: StoreDbs;
  readonly #slots = new Map<string, Map<SpendGroup, Map<string, { key: SpendKey; c: Counter }>>>();

  constructor(dbs: StoreDbs) {
    this.#dbs = dbs;
  }

  of(orgId: string, group: SpendGroup, value: string): Counter {
    let groups = this.#slots.get(orgId);
    if (groups === undefined) this.#slots.set(orgId, (groups = new Map()));
    let values = groups.get(group);
    if (values === undefined) groups.set(group, (values = new Map()));
    let slot = values.get(value);
    if (slot === undefined) {
      const key: SpendKey = [orgId, group, value];
      values.set(value, (slot = { key, c: this.#dbs.spend.get(key) ?? { cost: 0, requests: 0, inputTokens: 0, outputTokens: 0 } }));
    }
    return slot.c;
  }

  write(): void {
    for (const groups of this.#slots.values()) {
      for (const values of groups.values()) for (const { key, c } of values.values()) this.#dbs.spend.putSync(key, c);
    }
  }
}

/**
 * Applies a settlement batch (see Store.settle): once per request id, debit, spend counters, ledger entry and
 * its lookup. Each touched org's ledger is trimmed to `cap` once, at the end, like the LTRIM in settle.lua,
 * so a duplicate later in the same batch is still recognised. Returns the request ids newly applied.
 */
export function applySettlements(dbs: StoreDbs, entries: readonly SettlementEntry[], cap: number): string[] {
  const applied: string[] = [];
  const accounts = new Map<string, Account>();
  const counters = new BatchCounters(dbs);
  for (const e of entries) {
    let acct = accounts.get(e.orgId);
    if (acct === undefined) accounts.set(e.orgId, (acct = accountOf(dbs, e.orgId)));
    // The idempotency lookup and its write in one B-tree operation: the put fails when the request id is there.
    if (!putIfAbsent(dbs.ledgerById, [e.requestId, e.orgId], acct.next)) continue;
    acct.balance -= e.cost;
    for (const [group, value] of spendTargets(e)) {
      const c = counters.of(e.orgId, group, value);
      c.cost += e.cost;
      c.requests += 1;
      c.inputTokens += e.inputTokens;
      c.outputTokens += e.outputTokens;
    }
    dbs.ledger.putSync([e.orgId, acct.next], encodeLedgerEntry(e, acct.balance));
    acct.next += 1;
    applied.push(e.requestId);
  }
  counters.write();
  for (const [orgId, acct] of accounts) {
    trimLedger(dbs, orgId, acct, cap);
    dbs.accounts.putSync(orgId, acct);
  }
  return applied;
}

/** Drops the oldest entries (and their idempotency lookups) beyond `cap`. */
export function trimLedger(dbs: StoreDbs, orgId: string, acct: Account, cap: number): void {
  while (acct.next - acct.first > cap) {
    const old = dbs.ledger.get([orgId, acct.first]);
    if (old !== undefined) dbs.ledgerById.removeSync([ledgerRequestId(old), orgId]);
    dbs.ledger.removeSync([orgId, acct.first]);
    acct.first += 1;
  }
}

export type CreateResult = 'ok' | 'exists' | 'duplicate-hash';

/** Throws unless an insert below returned 'ok'. */
export function created(result: CreateResult, what: string): void {
  if (result === 'duplicate-hash') throw new Error('duplicate key hash');
  if (result === 'exists') throw new Error(`${what} already exists`);
}

export function insertOrg(dbs: StoreDbs, org: OrgRecord): CreateResult {
  if (dbs.orgs.get(org.id) !== undefined) return 'exists';
  dbs.orgs.putSync(org.id, org);
  return 'ok';
}

export function insertTeam(dbs: StoreDbs, team: TeamRecord): CreateResult {
  if (dbs.teams.get([team.orgId, team.id]) !== undefined) return 'exists';
  dbs.teams.putSync([team.orgId, team.id], team);
  return 'ok';
}

export function insertKey(dbs: StoreDbs, key: KeyRecord): CreateResult {
  if (dbs.keyByHash.get(key.hash) !== undefined) return 'duplicate-hash';
  if (dbs.keys.get([key.orgId, key.id]) !== undefined) return 'exists';
  dbs.keys.putSync([key.orgId, key.id], key);
  dbs.keyByHash.putSync(key.hash, [key.orgId, key.id]);
  return 'ok';
}

/** Read-modify-write of one kv string set (sorted members; the key is removed when it becomes empty). */
export function changeSet(dbs: StoreDbs, key: string, member: string, add: boolean, now: number): void {
  const cur = dbs.kv.get(key);
  const live = cur !== undefined && (cur.expiresAt === null || cur.expiresAt > now);
  const members = new Set(live ? (JSON.parse(cur.json) as string[]) : []);
  if (add === members.has(member)) return;
  if (add) members.add(member);
  else members.delete(member);
  if (members.size === 0) removeKv(dbs, key);
  else putKv(dbs, key, { json: JSON.stringify([...members].sort()), expiresAt: null });
}
