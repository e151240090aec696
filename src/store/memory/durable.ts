/**
 * Bodies of the embedded store's write transactions. Each runs inside one LMDB write transaction (reads see
 * the transaction's own writes, and LMDB's single writer lock serialises it against every other process), so
 * each is atomic exactly like its Lua script on Redis. They never throw for an expected refusal: a thrown
 * error would abort the whole batch of callbacks committed with it; the caller turns the result into one.
 */
import type { KeyRecord, OrgRecord, SettlementEntry, SpendGroup, TeamRecord } from '../contract.js';
import type { NanoUsd } from '../../billing/money.js';
import { spendTargets } from '../shared.js';
import type { Account, Counter, StoreDbs } from './db.js';
import { putKv, removeKv } from './kv-expiry.js';
import { encodeLedgerEntry, ledgerRequestId } from './ledger-codec.js';

type SpendKey = [orgId: string, group: SpendGroup, value: string];

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
 * Applies a settlement batch (see Store.settle): once per request id, debit, spend counters, ledger entry and
 * its lookup. Each touched org's ledger is trimmed to `cap` once, at the end, like the LTRIM in settle.lua,
 * so a duplicate later in the same batch is still recognised. Returns the request ids newly applied.
 */
export function applySettlements(dbs: StoreDbs, entries: readonly SettlementEntry[], cap: number): string[] {
  const applied: string[] = [];
  const accounts = new Map<string, Account>();
  // Counters are read and written once per batch (a batch's entries mostly share key, model and day).
  const counters = new Map<string, { key: SpendKey; c: Counter }>();
  for (const e of entries) {
    let acct = accounts.get(e.orgId);
    if (acct === undefined) accounts.set(e.orgId, (acct = accountOf(dbs, e.orgId)));
    if (dbs.ledgerByRequest.get([e.orgId, e.requestId]) !== undefined) continue;
    acct.balance -= e.cost;
    for (const [group, value] of spendTargets(e)) {
      const id = `${e.orgId}\u0000${group}\u0000${value}`;
      let slot = counters.get(id);
      if (slot === undefined) {
        const key: SpendKey = [e.orgId, group, value];
        counters.set(id, (slot = { key, c: dbs.spend.get(key) ?? { cost: 0, requests: 0, inputTokens: 0, outputTokens: 0 } }));
      }
      slot.c.cost += e.cost;
      slot.c.requests += 1;
      slot.c.inputTokens += e.inputTokens;
      slot.c.outputTokens += e.outputTokens;
    }
    dbs.ledger.putSync([e.orgId, acct.next], encodeLedgerEntry(e, acct.balance));
    dbs.ledgerByRequest.putSync([e.orgId, e.requestId], acct.next);
    acct.next += 1;
    applied.push(e.requestId);
  }
  for (const { key, c } of counters.values()) dbs.spend.putSync(key, c);
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
    if (old !== undefined) dbs.ledgerByRequest.removeSync([orgId, ledgerRequestId(old)]);
    dbs.ledger.removeSync([orgId, acct.first]);
    acct.first += 1;
  }
}

export type CreateResult = 'ok' | 'exists' | 'duplicate-hash';

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
