/**
 * How a ledger entry is stored in the embedded store's `ledger` database: a msgpack array of the entry's
 * values in LEDGER_FIELDS order behind a format tag, not a msgpack map. A map repeats the 21 field names
 * (~190 bytes) in every entry; at the 100k-entry cap per organization that was ~19 MiB of the file, and
 * every page of the file ends up resident (LMDB's copy-on-write reuses free pages across the whole file;
 * docs/memory.md). Still plain msgpack, readable by any msgpack reader with this field list.
 *
 * Entries written before (maps) are read as they are: no migration, and a database written by this version
 * only gains entries an older one cannot read (the format tag says so).
 */
import type { LedgerEntry, SettlementEntry } from '../contract.js';

/** The stored tuple's first element. */
export const LEDGER_TUPLE_FORMAT = 1;

/** Every field of a LedgerEntry, in stored order; the check below fails to compile when a field is missing. */
export const LEDGER_FIELDS = [
  'requestId',
  'orgId',
  'keyId',
  'teamId',
  'user',
  'model',
  'requestedModel',
  'cost',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'tokens',
  'tags',
  'hadHold',
  'scopes',
  'status',
  'endpoint',
  'latencyMs',
  'at',
  'balanceAfter',
] as const satisfies readonly (keyof LedgerEntry)[];

type Missing = Exclude<keyof LedgerEntry, (typeof LEDGER_FIELDS)[number]>;
/** Compile-time: `never` only when LEDGER_FIELDS names every field of LedgerEntry. */
const allFieldsListed: [Missing] extends [never] ? true : Missing = true;
void allFieldsListed;

export type StoredLedgerEntry = LedgerEntry | [typeof LEDGER_TUPLE_FORMAT, ...unknown[]];

/**
 * The stored tuple of a settled entry and the balance it left, in LEDGER_FIELDS order (the round-trip test fails
 * when the two disagree). Taken apart rather than as one LedgerEntry built with `{ ...entry, balanceAfter }`: in V8
 * an object spread has a map outside the transition tree, so adding a property to it made a new hidden class (in
 * the old generation) for every settled request. Spelt out rather than looped over LEDGER_FIELDS: `e[field]` with
 * twenty names is a megamorphic load each, twenty per settled request.
 */
export function encodeLedgerEntry(e: SettlementEntry, balanceAfter: number): StoredLedgerEntry {
  return [
    LEDGER_TUPLE_FORMAT,
    e.requestId,
    e.orgId,
    e.keyId,
    e.teamId,
    e.user,
    e.model,
    e.requestedModel,
    e.cost,
    e.inputTokens,
    e.outputTokens,
    e.cacheReadTokens,
    e.cacheWriteTokens,
    e.tokens,
    e.tags,
    e.hadHold,
    e.scopes,
    e.status,
    e.endpoint,
    e.latencyMs,
    e.at,
    balanceAfter,
  ];
}

export function decodeLedgerEntry(v: StoredLedgerEntry): LedgerEntry {
  if (!Array.isArray(v)) return v;
  if (v[0] !== LEDGER_TUPLE_FORMAT) throw new Error(`embedded store: ledger entry has format ${String(v[0])}, expected ${LEDGER_TUPLE_FORMAT}`);
  const e: Record<string, unknown> = {};
  for (let i = 0; i < LEDGER_FIELDS.length; i++) e[LEDGER_FIELDS[i] as string] = v[i + 1];
  return e as unknown as LedgerEntry;
}

/** The request id of a stored entry (trimming needs only that). */
export function ledgerRequestId(v: StoredLedgerEntry): string {
  return Array.isArray(v) ? (v[1] as string) : v.requestId;
}
