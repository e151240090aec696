/**
 * The embedded single-node Store. Durable state (orgs, teams, keys, balances, top-up keys, spend, ledger, kv)
 * lives in an LMDB database written incrementally by transactions that commit off the event loop (db.ts,
 * durable.ts); only hot state (rate windows, concurrency leases, credit holds, hit counters) is in memory,
 * bounded by what is in flight or inside its window. Nothing is ever re-serialised as a whole.
 *
 * Atomicity: every mutation of durable state is one LMDB transaction; in-memory hot state changes
 * synchronously. A settlement releases its hold only after its debit is committed, so a concurrent hold
 * may briefly see both (less credit available, never more).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
  assertCapped,
  assertInt,
  assertTtl,
  getOr,
  KEY_PATCH_FIELDS,
  kvJson,
  LEDGER_CAP,
  ledgerLimit,
  ORG_PATCH_FIELDS,
  pickPatch,
  sortByCreated,
  sortRows,
  validateEntry,
  WINDOW_MS,
  type KeyPatch,
  type OrgPatch,
} from '../shared.js';
import { closeDbs, openDbs, orgValues, RANGE_END, type StoreDbs } from './db.js';
import { accountOf, applySettlements, applyTopUp, changeSet, insertKey, insertOrg, insertTeam, created } from './durable.js';
import { OrgHolds } from './holds.js';
import { HitCounters } from './kv.js';
export { KV_SWEEP_BATCH } from './kv-expiry.js';
import { KeyStatusReader } from './key-status.js';
import { ensureKvExpiryIndex, putKv, putKvCapped, removeKv, sweepAllExpiredKv } from './kv-expiry.js';
import { decodeLedgerEntry } from './ledger-codec.js';
import { Limiter } from './limiter.js';
import { LocalInvalidationBus, type InvalidationBus } from '../invalidation.js';
import { initDatabase, type MigrationResult } from './migrate.js';
import { settleSliceSize } from './settle-slices.js';

export interface MemoryStoreOptions {
  /**
   * Where the store lives: the LMDB database is the file `store.lmdb` (and its `store.lmdb-lock`) beside this path, and a msgpackr
   * snapshot found at this path (the former format) is migrated into it on first start. null keeps
   * everything in a throwaway database that close() removes (tests).
   */
  snapshotPath: string | null;
  /** Database directory; default `store.lmdb` beside snapshotPath. */
  dbPath?: string;
  /** Ledger entries (and settle idempotency markers) kept per org; default LEDGER_CAP. */
  ledgerCap?: number;
}

export function defaultDbPath(snapshotPath: string): string {
  return join(dirname(snapshotPath), 'store.lmdb');
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  readonly #bus = new LocalInvalidationBus();

  /** Key-cache invalidation: one process, so the bus is in-process. */
  invalidationBus(): InvalidationBus {
    return this.#bus;
  }
  /** What the first start migrated from a snapshot (null when there was nothing to migrate). */
  readonly migrated: MigrationResult | null;
  #dbs: StoreDbs;
  readonly dbPath: string;
  #reopening = false;
  readonly #throwaway: string | null;
  readonly #ledgerCap: number;
  readonly #holds = new Map<string, OrgHolds>();
  readonly #limiter = new Limiter();
  readonly #keyStatus = new KeyStatusReader();
  readonly #hits = new HitCounters();
  readonly #sweeper: NodeJS.Timeout;
  #closed = false;
  /** Whether close() was called (map-release.ts stops then). */
  get closed(): boolean { return this.#closed; }
  /** Whether the database's map is open, and stays so until the next await (map-release.ts releases only then). */
  get mapped(): boolean { return !this.#closed && !this.#reopening; }
  #sweepingKv: Promise<number> | null = null;

  constructor(opts: MemoryStoreOptions) {
    this.#ledgerCap = opts.ledgerCap ?? LEDGER_CAP;
    const path = opts.dbPath ?? (opts.snapshotPath === null ? null : defaultDbPath(opts.snapshotPath));
    this.#throwaway = path === null ? mkdtempSync(join(tmpdir(), 'svc-store-')) : null;
    if (path !== null) mkdirSync(dirname(path), { recursive: true });
    this.dbPath = path ?? join(this.#throwaway ?? '', 'store.lmdb');
    this.#dbs = openDbs(this.dbPath, { durable: path !== null });
    this.migrated = initDatabase(this.#dbs, opts.snapshotPath, this.#ledgerCap);
    ensureKvExpiryIndex(this.#dbs);
    this.#sweeper = setInterval(() => this.#sweep(Date.now()), WINDOW_MS).unref();
  }

  // --- organizations, teams -----------------------------------------------------------------------------
  async createOrg(org: OrgRecord): Promise<void> {
    created(await this.#dbs.root.transaction(() => insertOrg(this.#dbs, org)), `org ${org.id}`);
  }

  async getOrg(orgId: string): Promise<OrgRecord | null> {
    return this.#dbs.orgs.get(orgId) ?? null;
  }

  async updateOrg(orgId: string, patch: OrgPatch): Promise<OrgRecord | null> {
    const fields = pickPatch(patch, ORG_PATCH_FIELDS);
    return this.#dbs.root.transaction(() => {
      const org = this.#dbs.orgs.get(orgId);
      if (org === undefined) return null;
      const next = { ...org, ...fields };
      this.#dbs.orgs.putSync(orgId, next);
      return next;
    });
  }

  async listOrgs(): Promise<OrgRecord[]> {
    return sortByCreated([...this.#dbs.orgs.getRange()].map((e) => e.value));
  }

  async createTeam(team: TeamRecord): Promise<void> {
    created(await this.#dbs.root.transaction(() => insertTeam(this.#dbs, team)), `team ${team.id}`);
  }

  async getTeam(orgId: string, teamId: string): Promise<TeamRecord | null> {
    return this.#dbs.teams.get([orgId, teamId]) ?? null;
  }

  async listTeams(orgId: string): Promise<TeamRecord[]> {
    return sortByCreated([...orgValues(this.#dbs.teams, orgId)]);
  }

  // --- keys ---------------------------------------------------------------------------------------------
  async createKey(key: KeyRecord): Promise<void> {
    created(await this.#dbs.root.transaction(() => insertKey(this.#dbs, key)), `key ${key.id}`);
  }

  async getKeyByHash(hash: string): Promise<KeyRecord | null> {
    const ref = this.#dbs.keyByHash.get(hash);
    return ref === undefined ? null : this.getKey(ref[0], ref[1]);
  }

  async getKey(orgId: string, keyId: string): Promise<KeyRecord | null> {
    return this.#dbs.keys.get([orgId, keyId]) ?? null;
  }

  async listKeys(orgId: string): Promise<KeyRecord[]> {
    return sortByCreated([...orgValues(this.#dbs.keys, orgId)]);
  }

  async updateKey(orgId: string, keyId: string, patch: KeyPatch): Promise<KeyRecord | null> {
    const fields = pickPatch(patch, KEY_PATCH_FIELDS);
    return this.#dbs.root.transaction(() => {
      const key = this.#dbs.keys.get([orgId, keyId]);
      if (key === undefined) return null;
      const next = { ...key, ...fields };
      this.#dbs.keys.putSync([orgId, keyId], next);
      return next;
    });
  }

  // --- credits ------------------------------------------------------------------------------------------
  async topUp(orgId: string, amount: NanoUsd, idempotencyKey: string): Promise<BalanceView> {
    assertInt('amount', amount, 0);
    const balance = await this.#dbs.root.transaction(() => applyTopUp(this.#dbs, orgId, amount, idempotencyKey));
    return { balance, held: this.#holds.get(orgId)?.held ?? 0 };
  }

  async getBalance(orgId: string): Promise<BalanceView> {
    const holds = this.#holds.get(orgId);
    holds?.purge(Date.now());
    return { balance: accountOf(this.#dbs, orgId).balance, held: holds?.held ?? 0 };
  }

  // --- admission ----------------------------------------------------------------------------------------
  async admit(req: AdmitRequest): Promise<AdmitResult> {
    assertInt('tokens', req.tokens, 0);
    const key = this.#keyStatus.read(this.#dbs, req.orgId, req.keyId);
    if (key === undefined) return { ok: false, kind: 'key_status', status: 'missing' };
    if (key.status !== 'active') return { ok: false, kind: 'key_status', status: key.status };
    return this.#limiter.admit(req);
  }

  async releaseLeases(orgId: string, requestId: string, scopes: Pick<LimitScope, 'source' | 'id'>[]): Promise<void> {
    for (const s of scopes) this.#limiter.releaseLease(orgId, s, requestId);
  }

  // --- holds --------------------------------------------------------------------------------------------
  async hold(req: HoldRequest): Promise<HoldResult> {
    assertInt('amount', req.amount, 0);
    assertTtl('ttlMs', req.ttlMs);
    const { orgId } = req;
    const settled = this.#dbs.ledgerById.get([req.requestId, orgId]) !== undefined;
    const spentOf = (b: BudgetScope): NanoUsd => this.#dbs.spend.get([orgId, b.source, b.id])?.cost ?? 0;
    const holds = getOr(this.#holds, orgId, () => new OrgHolds());
    const balance = accountOf(this.#dbs, orgId).balance;
    return holds.hold(balance, req.requestId, req.amount, req.now, Math.ceil(req.ttlMs), req.budgets, spentOf, settled);
  }

  async releaseHold(orgId: string, requestId: string): Promise<void> {
    this.#holds.get(orgId)?.release(requestId);
  }

  // --- settlement ---------------------------------------------------------------------------------------
  async settle(entries: SettlementEntry[]): Promise<string[]> {
    entries.forEach(validateEntry);
    const batch = entries.map((e) => ({ ...e }));
    // The transaction body runs on the event loop: a batch is applied as several transactions (settleSliceSize)
    // so no single one holds the loop for long; each is atomic on its own.
    const applied: string[] = [];
    const size = settleSliceSize(batch.length);
    for (let i = 0; i < batch.length; i += size) {
      const chunk = batch.slice(i, i + size);
      applied.push(...(await this.#dbs.root.transaction(() => applySettlements(this.#dbs, chunk, this.#ledgerCap))));
    }
    // Hot state follows the commit: the hold is released once the debit it covered is durable.
    const fresh = new Set(applied);
    for (const e of batch) {
      if (!fresh.has(e.requestId)) continue;
      this.#holds.get(e.orgId)?.release(e.requestId);
      for (const s of e.scopes) {
        this.#limiter.correctTokens(e.orgId, s, e.requestId, e.tokens);
        this.#limiter.releaseLease(e.orgId, s, e.requestId);
      }
    }
    return applied;
  }

  async listLedger(orgId: string, opts?: { limit?: number; sinceMs?: number }): Promise<LedgerEntry[]> {
    const limit = ledgerLimit(opts, this.#ledgerCap);
    const since = opts?.sinceMs ?? Number.NEGATIVE_INFINITY;
    const out: LedgerEntry[] = [];
    if (limit === 0) return out;
    const range = this.#dbs.ledger.getRange({ start: [orgId, Number.MAX_SAFE_INTEGER], end: [orgId, -1], reverse: true });
    for (const { value: stored } of range) {
      const value = decodeLedgerEntry(stored);
      if (value.at < since) continue;
      out.push(value);
      if (out.length >= limit) break;
    }
    return out;
  }

  async getLedgerEntry(orgId: string, requestId: string): Promise<LedgerEntry | null> {
    const seq = this.#dbs.ledgerById.get([requestId, orgId]);
    const stored = seq === undefined ? undefined : this.#dbs.ledger.get([orgId, seq]);
    return stored === undefined ? null : decodeLedgerEntry(stored);
  }

  async spend(orgId: string, group: SpendGroup): Promise<SpendRow[]> {
    const rows: SpendRow[] = [];
    for (const { key, value } of this.#dbs.spend.getRange({ start: [orgId, group], end: [orgId, group, RANGE_END] })) {
      rows.push({ group: key[2], ...value });
    }
    return sortRows(rows);
  }

  async scopeSpend(orgId: string, source: 'key' | 'team', id: string): Promise<NanoUsd> {
    return this.#dbs.spend.get([orgId, source, id])?.cost ?? 0;
  }

  // --- generic small state ------------------------------------------------------------------------------
  async kvGet<T>(key: string): Promise<T | null> {
    const v = this.#dbs.kv.get(key);
    if (v === undefined || (v.expiresAt !== null && v.expiresAt <= Date.now())) return null;
    return JSON.parse(v.json) as T;
  }

  async kvSet<T>(key: string, value: T, ttlMs?: number): Promise<void> {
    const json = kvJson(key, value);
    if (ttlMs !== undefined) assertTtl('ttlMs', ttlMs);
    const entry = { json, expiresAt: ttlMs === undefined ? null : Date.now() + ttlMs };
    await this.#dbs.root.transaction(() => putKv(this.#dbs, key, entry));
  }

  async kvSetCapped<T>(key: string, value: T, ttlMs: number, group: string, cap: number): Promise<void> {
    assertCapped(ttlMs, cap);
    const entry = { json: kvJson(key, value), expiresAt: Date.now() + ttlMs };
    await this.#dbs.root.transaction(() => putKvCapped(this.#dbs, key, entry, group, cap));
  }

  async kvDel(key: string): Promise<void> {
    await this.#dbs.root.transaction(() => removeKv(this.#dbs, key));
  }

  async setAdd(key: string, member: string): Promise<void> {
    await this.#dbs.root.transaction(() => changeSet(this.#dbs, `set:${key}`, member, true, Date.now()));
  }

  async setRemoveKeeping(key: string, member: string, keep: number): Promise<'removed' | 'absent' | 'refused'> {
    // One write transaction: atomic against this process and against the operator CLI's writes.
    return this.#dbs.root.transaction(() => {
      const now = Date.now();
      const cur = this.#dbs.kv.get(`set:${key}`);
      const members = cur !== undefined && (cur.expiresAt === null || cur.expiresAt > now) ? (JSON.parse(cur.json) as string[]) : [];
      if (!members.includes(member)) return 'absent' as const;
      if (members.length - 1 < keep) return 'refused' as const;
      changeSet(this.#dbs, `set:${key}`, member, false, now);
      return 'removed' as const;
    });
  }

  async setRemove(key: string, member: string): Promise<void> {
    await this.#dbs.root.transaction(() => changeSet(this.#dbs, `set:${key}`, member, false, Date.now()));
  }

  async setMembers(key: string): Promise<string[]> {
    return (await this.kvGet<string[]>(`set:${key}`)) ?? [];
  }

  async hit(key: string, windowMs: number): Promise<number> {
    return this.#hits.hit(key, windowMs, Date.now());
  }

  async ping(_timeoutMs: number): Promise<boolean> {
    return !this.#closed;
  }

  /**
   * Closes the database once its pending writes are committed and maps it afresh (remap.ts: the resident
   * file pages of the old map are given back). Callers must keep every other store call out meanwhile.
   */
  async reopenDatabase(): Promise<void> {
    if (this.#closed) return;
    this.#reopening = true;
    try {
      await this.#sweepingKv; // it stops at its next batch: no transaction may start on the closing map
      await closeDbs(this.#dbs);
      this.#dbs = openDbs(this.dbPath, { durable: this.#throwaway === null });
    } finally {
      this.#reopening = false;
    }
  }

  /** Resolves once the writes made so far are committed and flushed (remap.ts awaits it before its gate). */
  async flushWrites(): Promise<void> {
    if (this.#closed) return;
    await this.#dbs.root.committed;
    await this.#dbs.root.flushed;
  }

  /** Waits for every write to be committed and flushed, then closes the database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweeper);
    await this.#sweepingKv;
    await this.#dbs.root.committed;
    await this.#dbs.root.flushed;
    await closeDbs(this.#dbs);
    if (this.#throwaway !== null) rmSync(this.#throwaway, { recursive: true, force: true });
  }

  /**
   * Removes the kv entries expired at `now` through the expiry index, KV_SWEEP_BATCH per transaction until none
   * is left: the work is proportional to what expired, never to the live entries. Returns how many index
   * entries it visited. One sweep at a time (a sweep still running when the next is due is not doubled).
   */
  async sweepKv(now: number): Promise<number> {
    if (this.#sweepingKv !== null) return this.#sweepingKv;
    const run = sweepAllExpiredKv(() => (this.#closed || this.#reopening ? null : this.#dbs), now);
    this.#sweepingKv = run.finally(() => (this.#sweepingKv = null));
    return this.#sweepingKv;
  }

  /** Periodic cleanup of expired state nobody touched again (Redis does this with key TTLs). */
  #sweep(now: number): void {
    if (this.#reopening) return; // the next sweep does it
    this.#hits.sweep(now);
    this.#limiter.sweep(now);
    for (const [orgId, holds] of this.#holds) {
      holds.purge(now);
      if (holds.holdCount === 0) this.#holds.delete(orgId);
    }
    void this.sweepKv(now);
  }
}
