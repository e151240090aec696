/**
 * Rules both stores share, so the memory and Redis implementations cannot drift: window length, ledger cap,
 * input validation, which spend groups a settlement entry feeds, and list orderings.
 */
import type { KeyRecord, OrgRecord, SettlementEntry, SpendGroup, SpendRow } from './contract.js';

/** Sliding window length for RPM and TPM (contract: "exact sliding windows of 60 s"). */
export const WINDOW_MS = 60_000;
/**
 * Ledger entries kept per organization, newest first. The per-request lookup, which is also the settle
 * idempotency marker, keeps the same entries: a request id is applied once within its org's last LEDGER_CAP.
 */
export const LEDGER_CAP = 100_000;
export const DEFAULT_LEDGER_LIMIT = 100;
/** A concurrency refusal advertises the earliest lease expiry, but never more than this (leases usually end early). */
export const MAX_CONCURRENCY_RETRY_MS = 1_000;

export const KEY_PATCH_FIELDS = ['status', 'expiresAt', 'name', 'budget', 'rpm', 'tpm'] as const;
export const ORG_PATCH_FIELDS = [
  'name',
  'status',
  'fallbacks',
  'rpm',
  'tpm',
  'maxConcurrency',
  'priceCeilingPerMTok',
  'storageBuckets',
] as const;

export type KeyPatch = Partial<Pick<KeyRecord, (typeof KEY_PATCH_FIELDS)[number]>>;
export type OrgPatch = Partial<Omit<OrgRecord, 'id' | 'createdAt'>>;

/** Money and token counts are integers (src/billing/money.ts); a fraction here is a caller bug, not a rounding. */
export function assertInt(name: string, value: number, min = Number.MIN_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a safe integer >= ${min}, got ${value}`);
  }
}

export function assertTtl(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of ms`);
}

/** A kv value as JSON (kvSet, kvSetCapped); a value JSON cannot hold is a caller bug. */
export function kvJson(key: string, value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`kvSet(${key}): value is not JSON-serialisable`);
  return json;
}

/**
 * Oldest entries a kvSetCapped write deletes at most: a lowered cap (100,000 to 10, say) converges over a few writes
 * instead of deleting a whole group in one transaction or script, which would hold the event loop (or Redis) that long.
 */
export const CAP_TRIM_PER_WRITE = 64;

/** Checks kvSetCapped's arguments: a positive TTL and a positive integer cap. */
export function assertCapped(ttlMs: number, cap: number): void {
  assertTtl('ttlMs', ttlMs);
  if (!Number.isSafeInteger(cap) || cap < 1) throw new RangeError(`cap must be a positive integer, got ${cap}`);
}

/** Copies the allowed, defined fields of a patch (undefined means "leave as is"; null is a value). */
export function pickPatch<T extends object>(patch: T, allowed: readonly string[]): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v !== undefined && allowed.includes(k)) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

const DAY_MS = 86_400_000;
let dayStart = Number.NaN;
let dayName = '';

/** `YYYY-MM-DD` (UTC) of a time in ms; the last day's name is kept (a Date and toISOString per new day, not per call). */
export function utcDay(ms: number): string {
  if (!(ms >= dayStart && ms < dayStart + DAY_MS)) {
    dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    dayName = new Date(dayStart).toISOString().slice(0, 10);
  }
  return dayName;
}

/** The (group, value) spend counters one settlement entry adds to; tags are counted once each. */
export function spendTargets(e: SettlementEntry): [SpendGroup, string][] {
  const out: [SpendGroup, string][] = [
    ['key', e.keyId],
    ['model', e.model],
    ['day', utcDay(e.at)],
  ];
  if (e.teamId !== null) out.push(['team', e.teamId]);
  if (e.user !== null) out.push(['user', e.user]);
  for (const tag of new Set(e.tags)) out.push(['tag', tag]);
  return out;
}

export function validateEntry(e: SettlementEntry): void {
  assertInt('cost', e.cost, 0);
  assertInt('tokens', e.tokens, 0);
  assertInt('inputTokens', e.inputTokens, 0);
  assertInt('outputTokens', e.outputTokens, 0);
}

export function sortByCreated<T extends { createdAt: number; id: string }>(items: T[]): T[] {
  return items.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Spend rows are returned ordered by group value (days therefore chronologically). */
export function sortRows(rows: SpendRow[]): SpendRow[] {
  return rows.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

export function concurrencyRetryMs(earliestExpiry: number | undefined, now: number): number {
  if (earliestExpiry === undefined) return MAX_CONCURRENCY_RETRY_MS;
  return Math.max(1, Math.min(MAX_CONCURRENCY_RETRY_MS, earliestExpiry - now));
}

export function ledgerLimit(opts: { limit?: number } | undefined, cap: number): number {
  const limit = opts?.limit ?? DEFAULT_LEDGER_LIMIT;
  return Math.max(0, Math.min(cap, Math.floor(limit)));
}

export function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
