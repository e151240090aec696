/**
 * The embedded single-node Store. Every method runs to completion without awaiting, so each one is atomic
 * exactly like its Lua script on Redis. Records are copied in and out so callers never share our objects.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  AdmitRequest,
  AdmitResult,
  BalanceView,
  BudgetScope,
  HoldRequest,
  HoldResult,
  KeyRecord,
  LedgerEntry,
  LimitScope,
  OrgRecord,
  SettlementEntry,
  SpendGroup,
  SpendRow,
  Store,
  TeamRecord,
} from '../contract.js';
import type { NanoUsd } from '../../billing/money.js';
import {
  assertInt,
  assertTtl,
  KEY_PATCH_FIELDS,
  LEDGER_CAP,
  ledgerLimit,
  ORG_PATCH_FIELDS,
  pickPatch,
  sortByCreated,
  sortRows,
  spendTargets,
  validateEntry,
  WINDOW_MS,
  type KeyPatch,
  type OrgPatch,
} from '../shared.js';
import { readSnapshot, SnapshotWriter } from './snapshot.js';
import type { OrgBook } from './ledger.js';
import { MemoryState } from './state.js';

export interface MemoryStoreOptions {
  /** msgpackr snapshot file; null keeps everything in memory only (tests, throwaway runs). */
  snapshotPath: string | null;
  /** Called when a background snapshot write fails (default: a process warning). */
  onSnapshotError?: (err: unknown) => void;
  /** Ledger entries (and settle idempotency markers) kept per org; default LEDGER_CAP. */
  ledgerCap?: number;
}

/** Delay before a snapshot after a top-up or a key/org/team change: acknowledged changes must survive. */
const CRITICAL_SAVE_MS = 50;
/** Settlement and kv change state too, but in a steady stream; saving them once a second bounds the cost. */
const LAZY_SAVE_MS = 1_000;

const copy = <T>(v: T): T => structuredClone(v);

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  readonly #s: MemoryState;
  readonly #writer: SnapshotWriter | null = null;
  readonly #sweeper: NodeJS.Timeout;
  #closed = false;

  constructor(opts: MemoryStoreOptions) {
    this.#s = new MemoryState(opts.ledgerCap ?? LEDGER_CAP);
    if (opts.snapshotPath !== null) {
      const onError = opts.onSnapshotError ?? ((err: unknown) => process.emitWarning(`memory store snapshot: ${String(err)}`));
      mkdirSync(dirname(opts.snapshotPath), { recursive: true });
      const data = readSnapshot(opts.snapshotPath);
      if (data !== null) this.#s.restore(data);
      this.#writer = new SnapshotWriter(opts.snapshotPath, () => this.#s.toSnapshot(), onError);
    }
    this.#sweeper = setInterval(() => this.#s.sweep(Date.now()), WINDOW_MS).unref();
  }

  // --- organizations, teams -----------------------------------------------------------------------------
  async createOrg(org: OrgRecord): Promise<void> {
    if (this.#s.orgs.has(org.id)) throw new Error(`org ${org.id} already exists`);
    this.#s.orgs.set(org.id, copy(org));
    this.#save(CRITICAL_SAVE_MS);
  }

  async getOrg(orgId: string): Promise<OrgRecord | null> {
    const org = this.#s.orgs.get(orgId);
    return org === undefined ? null : copy(org);
  }

  async updateOrg(orgId: string, patch: OrgPatch): Promise<OrgRecord | null> {
    const org = this.#s.orgs.get(orgId);
    if (org === undefined) return null;
    const next = { ...org, ...copy(pickPatch(patch, ORG_PATCH_FIELDS)) };
    this.#s.orgs.set(orgId, next);
    this.#save(CRITICAL_SAVE_MS);
    return copy(next);
  }

  async listOrgs(): Promise<OrgRecord[]> {
    return sortByCreated([...this.#s.orgs.values()].map(copy));
  }

  async createTeam(team: TeamRecord): Promise<void> {
    const teams = this.#s.teamsOf(team.orgId);
    if (teams.has(team.id)) throw new Error(`team ${team.id} already exists`);
    teams.set(team.id, copy(team));
    this.#save(CRITICAL_SAVE_MS);
  }

  async getTeam(orgId: string, teamId: string): Promise<TeamRecord | null> {
    const team = this.#s.teams.get(orgId)?.get(teamId);
    return team === undefined ? null : copy(team);
  }

  async listTeams(orgId: string): Promise<TeamRecord[]> {
    return sortByCreated([...(this.#s.teams.get(orgId)?.values() ?? [])].map(copy));
  }

  // --- keys ---------------------------------------------------------------------------------------------
  async createKey(key: KeyRecord): Promise<void> {
    if (this.#s.keyByHash.has(key.hash)) throw new Error('duplicate key hash');
    const keys = this.#s.keysOf(key.orgId);
    if (keys.has(key.id)) throw new Error(`key ${key.id} already exists`);
    keys.set(key.id, copy(key));
    this.#s.keyByHash.set(key.hash, { orgId: key.orgId, keyId: key.id });
    this.#save(CRITICAL_SAVE_MS);
  }

  async getKeyByHash(hash: string): Promise<KeyRecord | null> {
    const ref = this.#s.keyByHash.get(hash);
    return ref === undefined ? null : this.getKey(ref.orgId, ref.keyId);
  }

  async getKey(orgId: string, keyId: string): Promise<KeyRecord | null> {
    const key = this.#s.keys.get(orgId)?.get(keyId);
    return key === undefined ? null : copy(key);
  }

  async listKeys(orgId: string): Promise<KeyRecord[]> {
    return sortByCreated([...(this.#s.keys.get(orgId)?.values() ?? [])].map(copy));
  }

  async updateKey(orgId: string, keyId: string, patch: KeyPatch): Promise<KeyRecord | null> {
    const keys = this.#s.keys.get(orgId);
    const key = keys?.get(keyId);
    if (keys === undefined || key === undefined) return null;
    const next = { ...key, ...pickPatch(patch, KEY_PATCH_FIELDS) };
    keys.set(keyId, next);
    this.#save(CRITICAL_SAVE_MS);
    return copy(next);
  }

  // --- credits ------------------------------------------------------------------------------------------
  async topUp(orgId: string, amount: NanoUsd, idempotencyKey: string): Promise<BalanceView> {
    assertInt('amount', amount, 0);
    const credit = this.#s.creditOf(orgId);
    credit.topUp(amount, idempotencyKey);
    this.#save(CRITICAL_SAVE_MS);
    return { balance: credit.balance, held: credit.held };
  }

  async getBalance(orgId: string): Promise<BalanceView> {
    const credit = this.#s.credit.get(orgId);
    if (credit === undefined) return { balance: 0, held: 0 };
    credit.purge(Date.now());
    return { balance: credit.balance, held: credit.held };
  }

  // --- admission ----------------------------------------------------------------------------------------
  async admit(req: AdmitRequest): Promise<AdmitResult> {
    assertInt('tokens', req.tokens, 0);
    const key = this.#s.keys.get(req.orgId)?.get(req.keyId);
    if (key === undefined) return { ok: false, kind: 'key_status', status: 'missing' };
    if (key.status !== 'active') return { ok: false, kind: 'key_status', status: key.status };
    return this.#s.limiter.admit(req);
  }

  async releaseLeases(orgId: string, requestId: string, scopes: Pick<LimitScope, 'source' | 'id'>[]): Promise<void> {
    for (const s of scopes) this.#s.limiter.releaseLease(orgId, s, requestId);
  }

  // --- holds --------------------------------------------------------------------------------------------
  async hold(req: HoldRequest): Promise<HoldResult> {
    assertInt('amount', req.amount, 0);
    assertTtl('ttlMs', req.ttlMs);
    const book = this.#s.books.get(req.orgId);
    const settled = book?.byRequest.has(req.requestId) ?? false;
    const spentOf = (b: BudgetScope): NanoUsd => book?.spent(b.source, b.id) ?? 0;
    const credit = this.#s.creditOf(req.orgId);
    return credit.hold(req.requestId, req.amount, req.now, Math.ceil(req.ttlMs), req.budgets, spentOf, settled);
  }

  async releaseHold(orgId: string, requestId: string): Promise<void> {
    this.#s.credit.get(orgId)?.release(requestId);
  }

  // --- settlement ---------------------------------------------------------------------------------------
  async settle(entries: SettlementEntry[]): Promise<string[]> {
    entries.forEach(validateEntry);
    const applied: string[] = [];
    const touched = new Set<OrgBook>();
    for (const e of entries) {
      const book = this.#s.bookOf(e.orgId);
      touched.add(book);
      if (book.byRequest.has(e.requestId)) continue;
      const credit = this.#s.creditOf(e.orgId);
      credit.release(e.requestId);
      credit.balance -= e.cost;
      const entry: LedgerEntry = { ...copy(e), balanceAfter: credit.balance };
      for (const [group, value] of spendTargets(e)) book.add(group, value, entry);
      for (const s of e.scopes) {
        this.#s.limiter.correctTokens(e.orgId, s, e.requestId, e.tokens);
        this.#s.limiter.releaseLease(e.orgId, s, e.requestId);
      }
      book.append(entry);
      applied.push(e.requestId);
    }
    for (const book of touched) book.trim();
    if (applied.length > 0) this.#save(LAZY_SAVE_MS);
    return applied;
  }

  async listLedger(orgId: string, opts?: { limit?: number; sinceMs?: number }): Promise<LedgerEntry[]> {
    const limit = ledgerLimit(opts, this.#s.ledgerCap);
    const since = opts?.sinceMs ?? Number.NEGATIVE_INFINITY;
    const out: LedgerEntry[] = [];
    const book = this.#s.books.get(orgId);
    if (book === undefined || limit === 0) return out;
    for (const e of book.newestFirst()) {
      if (e.at < since) continue;
      out.push(copy(e));
      if (out.length >= limit) break;
    }
    return out;
  }

  async getLedgerEntry(orgId: string, requestId: string): Promise<LedgerEntry | null> {
    const e = this.#s.books.get(orgId)?.byRequest.get(requestId);
    return e === undefined ? null : copy(e);
  }

  async spend(orgId: string, group: SpendGroup): Promise<SpendRow[]> {
    return sortRows(this.#s.books.get(orgId)?.rows(group) ?? []);
  }

  async scopeSpend(orgId: string, source: 'key' | 'team', id: string): Promise<NanoUsd> {
    return this.#s.books.get(orgId)?.spent(source, id) ?? 0;
  }

  // --- generic small state ------------------------------------------------------------------------------
  async kvGet<T>(key: string): Promise<T | null> {
    return this.#s.kv.get<T>(key, Date.now());
  }

  async kvSet<T>(key: string, value: T, ttlMs?: number): Promise<void> {
    this.#s.kv.set(key, value, ttlMs, Date.now());
    this.#save(LAZY_SAVE_MS);
  }

  async kvDel(key: string): Promise<void> {
    this.#s.kv.del(key);
    this.#save(LAZY_SAVE_MS);
  }

  // Sets live in the kv space as sorted JSON arrays; one synchronous read-modify-write is atomic here.
  async setAdd(key: string, member: string): Promise<void> {
    const members = new Set(this.#s.kv.get<string[]>(`set:${key}`, Date.now()) ?? []);
    if (members.has(member)) return;
    members.add(member);
    this.#s.kv.set(`set:${key}`, [...members].sort(), undefined, Date.now());
    this.#save(LAZY_SAVE_MS);
  }

  async setRemoveKeeping(key: string, member: string, keep: number): Promise<'removed' | 'absent' | 'refused'> {
    // One synchronous step on the event loop: atomic in this process.
    const members = this.#s.kv.get<string[]>(`set:${key}`, Date.now()) ?? [];
    if (!members.includes(member)) return 'absent';
    if (members.length - 1 < keep) return 'refused';
    await this.setRemove(key, member);
    return 'removed';
  }

  async setRemove(key: string, member: string): Promise<void> {
    const members = this.#s.kv.get<string[]>(`set:${key}`, Date.now()) ?? [];
    if (!members.includes(member)) return;
    const rest = members.filter((m) => m !== member);
    if (rest.length === 0) this.#s.kv.del(`set:${key}`);
    else this.#s.kv.set(`set:${key}`, rest, undefined, Date.now());
    this.#save(LAZY_SAVE_MS);
  }

  async setMembers(key: string): Promise<string[]> {
    return this.#s.kv.get<string[]>(`set:${key}`, Date.now()) ?? [];
  }

  async hit(key: string, windowMs: number): Promise<number> {
    return this.#s.kv.hit(key, windowMs, Date.now());
  }

  async ping(_timeoutMs: number): Promise<boolean> {
    return !this.#closed;
  }

  /** Writes the final snapshot. Later calls still work in memory but are no longer persisted. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweeper);
    await this.#writer?.flush();
  }

  #save(delayMs: number): void {
    if (!this.#closed) this.#writer?.schedule(delayMs);
  }
}
