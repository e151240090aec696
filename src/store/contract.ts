/**
 * The Store contract: every piece of shared state the gateway keeps, behind one interface with two
 * implementations (memory: the embedded single-node default; redis: Lua scripts, one hash tag per org).
 * Both must give the same answers; test/conformance/store.suite.ts proves it.
 *
 * Units: money is integer nano-USD (src/billing/money.ts); times are epoch milliseconds.
 * Every method that must be atomic is one round trip (one Lua script on Redis).
 */
import type { NanoUsd } from '../billing/money.js';

export type KeyStatus = 'active' | 'revoked' | 'blocked';

export interface OrgRecord {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  createdAt: number;
  /** Organization default fallback chain (model ids), used when a request names no svc_fallbacks. */
  fallbacks: string[];
  /** Organization-wide ceilings; null = unlimited. */
  rpm: number | null;
  tpm: number | null;
  maxConcurrency: number | null;
  /** svc/auto never picks a model whose output price per million tokens exceeds this (USD); null = none. */
  priceCeilingPerMTok: number | null;
  /** Cloud-storage buckets (`s3://b`, `gs://b`) its image URLs may name; absent = none (operator-set). */
  storageBuckets?: string[];
}

export interface TeamRecord {
  id: string;
  orgId: string;
  name: string;
  rpm: number | null;
  tpm: number | null;
  budget: NanoUsd | null;
  createdAt: number;
}

export interface KeyRecord {
  id: string;
  orgId: string;
  /** hex sha256 of the full key value. The plaintext is never stored. */
  hash: string;
  name: string;
  /** Last 4 characters of the key value, for the alias `sk-...<last4>`. */
  last4: string;
  /** `sk-svc-` or `sk-legacy-`: selects the response header family. */
  prefix: string;
  teamId: string | null;
  status: KeyStatus;
  createdAt: number;
  /** epoch ms; null = never. */
  expiresAt: number | null;
  /** null = every model. */
  allowedModels: string[] | null;
  /** Route patterns like `/v1/chat/completions`, `/v1/models`; null = every route. */
  allowedRoutes: string[] | null;
  /** IPs or IPv4 CIDRs; null = any. */
  allowedIps: string[] | null;
  budget: NanoUsd | null;
  /** Fraction of budget (0..1) after which x-svc-budget-warning is emitted; null = no warning. */
  budgetWarnAt: number | null;
  rpm: number | null;
  tpm: number | null;
  maxConcurrency: number | null;
  neverCompress: boolean;
  createdBy: string | null;
}

/** One ceiling checked at admission. `source` is the x-svc-limit-source value reported on refusal. */
export interface LimitScope {
  source: 'key' | 'team' | 'plan' | 'user';
  /** Scope id (key id, team id, org id, or `user` field value). */
  id: string;
  rpm: number | null;
  tpm: number | null;
  maxConcurrency: number | null;
}

export interface AdmitRequest {
  orgId: string;
  keyId: string;
  requestId: string;
  now: number;
  /** Estimated tokens for TPM (input estimate + max output); corrected to actual usage at settlement. */
  tokens: number;
  scopes: LimitScope[];
  /** Concurrency lease lifetime; a crashed node's lease expires after this. */
  leaseTtlMs: number;
}

export type AdmitResult =
  | { ok: true }
  /** The key's status in the store is no longer active (revocation bites on the next request, every node). */
  | { ok: false; kind: 'key_status'; status: KeyStatus | 'missing' }
  | { ok: false; kind: 'rpm' | 'tpm' | 'concurrency'; source: LimitScope['source']; retryAfterMs: number };

/** A budget that a hold must fit under: spent + held + amount <= limit. */
export interface BudgetScope {
  source: 'key' | 'team';
  id: string;
  limit: NanoUsd;
}

export interface HoldRequest {
  orgId: string;
  requestId: string;
  amount: NanoUsd;
  now: number;
  ttlMs: number;
  budgets: BudgetScope[];
}

export type HoldResult =
  | { ok: true; available: NanoUsd }
  | { ok: false; source: 'plan' | 'budget'; available: NanoUsd };

export interface SettlementEntry {
  requestId: string;
  orgId: string;
  keyId: string;
  teamId: string | null;
  user: string | null;
  /** Model that served (billing identity), and the model the client asked for. */
  model: string;
  requestedModel: string;
  cost: NanoUsd;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Tokens counted against TPM windows (replaces the admission estimate). */
  tokens: number;
  /** Spend tags from x-svc-tags, `key=value` strings. */
  tags: string[];
  /** Whether a hold exists to release (false for unmetered endpoints). */
  hadHold: boolean;
  /** Limit scopes admitted with (to correct TPM estimates and release concurrency leases). */
  scopes: Pick<LimitScope, 'source' | 'id'>[];
  status: 'ok' | 'error' | 'aborted';
  endpoint: string;
  latencyMs: number;
  at: number;
}

export interface LedgerEntry extends SettlementEntry {
  /** Org balance right after this entry was applied. */
  balanceAfter: NanoUsd;
}

export interface SpendRow {
  /** Group value: key id, model id, tag `k=v`, or day `YYYY-MM-DD` (UTC). */
  group: string;
  cost: NanoUsd;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export type SpendGroup = 'key' | 'model' | 'tag' | 'day' | 'team' | 'user';

export interface BalanceView {
  balance: NanoUsd;
  held: NanoUsd;
}

/**
 * The records the dashboard (and key lookup on a cache miss) reads and writes: organizations, teams, keys,
 * generic small state. Not on the per-request hot path except through the key cache.
 */
export interface RecordStore {
  // --- organizations, teams -------------------------------------------------------------------------------
  createOrg(org: OrgRecord): Promise<void>;
  getOrg(orgId: string): Promise<OrgRecord | null>;
  updateOrg(orgId: string, patch: Partial<Omit<OrgRecord, 'id' | 'createdAt'>>): Promise<OrgRecord | null>;
  listOrgs(): Promise<OrgRecord[]>;
  createTeam(team: TeamRecord): Promise<void>;
  getTeam(orgId: string, teamId: string): Promise<TeamRecord | null>;
  listTeams(orgId: string): Promise<TeamRecord[]>;

  // --- keys -----------------------------------------------------------------------------------------------
  /** Stores the record and its hash index. Rejects (throws) on a duplicate hash. */
  createKey(key: KeyRecord): Promise<void>;
  /** Lookup by sha256 hex of the presented key. */
  getKeyByHash(hash: string): Promise<KeyRecord | null>;
  getKey(orgId: string, keyId: string): Promise<KeyRecord | null>;
  listKeys(orgId: string): Promise<KeyRecord[]>;
  /** Changes status and/or expiry; returns the updated record or null when the key is not in the org. */
  updateKey(
    orgId: string,
    keyId: string,
    patch: Partial<Pick<KeyRecord, 'status' | 'expiresAt' | 'name' | 'budget' | 'rpm' | 'tpm'>>,
  ): Promise<KeyRecord | null>;

  // --- generic small state (health, sessions, webhooks...) ----------------------------------------------------
  /** Key-value with optional TTL; values are JSON-serialisable. Namespaced by caller (e.g. `session:<id>`). */
  kvGet<T>(key: string): Promise<T | null>;
  kvSet<T>(key: string, value: T, ttlMs?: number): Promise<void>;
  kvDel(key: string): Promise<void>;
  /**
   * kvSet with a TTL for an entry of a bounded group (an organization's stored responses): the group keeps at most
   * `cap` entries, and writing one more deletes the oldest written (at most CAP_TRIM_PER_WRITE per write: a lowered cap
   * converges over a few writes). Each key is written once per group. `key` and `group` carry the same hash tag (one
   * Redis Cluster slot).
   */
  kvSetCapped<T>(key: string, value: T, ttlMs: number, group: string, cap: number): Promise<void>;
  /**
   * Atomic string sets (org-scoped id lists such as members, webhooks, channels) that several nodes may change
   * at once: add and remove never lose a concurrent change. Members come back sorted.
   */
  setAdd(key: string, member: string): Promise<void>;
  setRemove(key: string, member: string): Promise<void>;
  /**
   * Removes `member` unless the set would keep fewer than `keep` members, as one atomic step (the last
   * Owner of an organization). `removed`, `absent` (not a member) or `refused`.
   */
  setRemoveKeeping(key: string, member: string, keep: number): Promise<'removed' | 'absent' | 'refused'>;
  setMembers(key: string): Promise<string[]>;
  /** Fixed-window counter (e.g. 5 registrations per minute): increments and returns the count in window. */
  hit(key: string, windowMs: number): Promise<number>;
}

/** Hot path, stage 2 (admission): one atomic round trip per request, plus the lease release. */
export interface LimitStore {
  // --- admission (one round trip) ---------------------------------------------------------------------------
  /**
   * Atomically: re-check the key is active; drop expired window entries and leases; check every scope's RPM,
   * TPM and concurrency; only if all pass, record the request in every window and take a lease per scope
   * that has maxConcurrency. Exact sliding windows of 60 s.
   */
  admit(req: AdmitRequest): Promise<AdmitResult>;
  /** Releases the concurrency leases taken by `admit` (idempotent). Also done by settle(). */
  releaseLeases(orgId: string, requestId: string, scopes: Pick<LimitScope, 'source' | 'id'>[]): Promise<void>;
  /**
   * Optional (a store where a call is a network round trip implements it): `admit`, then, only if admitted,
   * `hold` for the same request, atomically in one round trip. A hold that does not fit leaves the
   * admission in place (`hold.ok` false); an admission refusal records nothing and carries no hold result.
   */
  admitAndHold?(req: AdmitRequest, hold: Pick<HoldRequest, 'amount' | 'ttlMs' | 'budgets'>): Promise<AdmitHoldResult>;
}

export type AdmitHoldResult = { admit: Extract<AdmitResult, { ok: false }>; hold: null } | { admit: { ok: true }; hold: HoldResult };

/** Hot path, stages 4 and 6 (hold, settlement) and the credit side of the dashboard. */
export interface CreditStore {
  // --- credits ----------------------------------------------------------------------------------------------
  /**
   * Adds credit. Idempotent per `idempotencyKey` (a repeated top-up with the same key changes nothing and
   * returns the current balance).
   */
  topUp(orgId: string, amount: NanoUsd, idempotencyKey: string): Promise<BalanceView>;
  getBalance(orgId: string): Promise<BalanceView>;

  // --- holds ------------------------------------------------------------------------------------------------
  /**
   * Atomically: drop expired holds; available = balance - held; refuse if amount > available (source plan)
   * or if any budget's spent + held-for-scope + amount > limit (source budget); else record the hold (with
   * TTL) against the org and each budget scope. Idempotent per requestId.
   */
  hold(req: HoldRequest): Promise<HoldResult>;
  /** Releases a hold without charging (idempotent; unknown request id is a no-op). */
  releaseHold(orgId: string, requestId: string): Promise<void>;

  // --- settlement (batched by the caller) -------------------------------------------------------------------
  /**
   * Applies a batch. For each entry, exactly once per requestId (a repeat is ignored): release its hold,
   * debit `cost` from the balance (may go negative only by the difference between estimate and actual),
   * add spend to key/team/model/tag/day/user counters, replace the TPM estimate by `tokens`, release
   * leases, append a ledger entry. Returns the request ids newly applied.
   */
  settle(entries: SettlementEntry[]): Promise<string[]>;
  listLedger(orgId: string, opts?: { limit?: number; sinceMs?: number }): Promise<LedgerEntry[]>;
  getLedgerEntry(orgId: string, requestId: string): Promise<LedgerEntry | null>;
  spend(orgId: string, group: SpendGroup): Promise<SpendRow[]>;
  /** Total settled spend of one key or team (for budgets). */
  scopeSpend(orgId: string, source: 'key' | 'team', id: string): Promise<NanoUsd>;
}

/** Everything, as one backend implements it (memory or redis). Stages take only the piece they use. */
export interface Store extends RecordStore, LimitStore, CreditStore {
  readonly kind: 'memory' | 'redis';

  /** Health probe with a bounded wait; false when the backend cannot answer. */
  ping(timeoutMs: number): Promise<boolean>;
  /** Persist (memory: snapshot) and release connections. */
  close(): Promise<void>;
}

/** Thrown by a store when its backend is unreachable or did not answer in time (maps to 503). */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
