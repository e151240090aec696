/**
 * The embedded store's durable half: one LMDB environment (the `lmdb` package, msgpackr-encoded values)
 * with a named database per record kind. Reads are synchronous and cheap (memory-mapped); writes go through
 * `transaction()`, whose commit runs on lmdb's write thread (off the event loop) and whose disk flush
 * overlaps later transactions (overlappingSync). A committed transaction survives a process crash; the
 * flush bounds what an OS crash could undo.
 *
 * LMDB is multi-process: the operator CLI can write beside a running gateway, and the gateway sees the
 * change on its next read (the read snapshot is renewed every event turn).
 */
import { ABORT, open, type Database, type RootDatabase } from 'lmdb';
import type { KeyRecord, OrgRecord, SpendGroup, TeamRecord } from '../contract.js';
import { KEY_ENCODER } from './key-encoder.js';
import type { StoredLedgerEntry } from './ledger-codec.js';

export interface Counter {
  cost: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

/** One organization's money and ledger cursor: ledger entries live at sequence numbers [first, next). */
export interface Account {
  balance: number;
  next: number;
  first: number;
}

export interface KvValue {
  json: string;
  /** epoch ms; null = no expiry. */
  expiresAt: number | null;
}

export type OrgScoped = [orgId: string, id: string];

export interface StoreDbs {
  root: RootDatabase;
  orgs: Database<OrgRecord, string>;
  teams: Database<TeamRecord, OrgScoped>;
  keys: Database<KeyRecord, OrgScoped>;
  keyByHash: Database<OrgScoped, string>;
  accounts: Database<Account, string>;
  topUps: Database<true, OrgScoped>;
  spend: Database<Counter, [orgId: string, group: SpendGroup, value: string]>;
  /** Values: ledger-codec.ts (tuples; maps written before are still read). */
  ledger: Database<StoredLedgerEntry, [orgId: string, seq: number]>;
  /** Format 1's lookup of a ledger entry, `[orgId, requestId] -> seq`: read only to move it to ledgerById (migrate.ts). */
  ledgerByRequest: Database<number, OrgScoped>;
  /**
   * `[requestId, orgId] -> seq` of every ledger entry kept. The request id first: ids are time-ordered (UUID v7,
   * src/pipeline/request-id.ts), so every organization's settlements go to the tail of one index, where
   * `[orgId, requestId]` put each at its own organization's tail, one more page copied per settlement when many
   * organizations settle at once (docs/memory.md, "Many organizations on the embedded store").
   */
  ledgerById: Database<number, [requestId: string, orgId: string]>;
  kv: Database<KvValue, string>;
  /**
   * `[expiresAt, kv key]` of every kv entry that expires, in expiry order (kv-expiry.ts); the value is the entry's
   * capped group (kvSetCapped), else true.
   */
  kvExpiry: Database<true | string, [expiresAt: number, key: string]>;
  /** The kv keys of each capped group in write order (kv-expiry.ts, putKvCapped), and each group's cursor. */
  kvGroups: Database<string, [group: string, seq: number]>;
  kvGroupCursor: Database<{ first: number; next: number }, string>;
  meta: Database<unknown, string>;
}

/** Sorts after every id we store (uuids, hashes, request ids, group values): the end of an org's range. */
export const RANGE_END = '\uffff';

/**
 * Plain msgpack maps: no records extension, so values stay decodable by any msgpack reader. Keys: ordered-binary's
 * bytes, written faster (key-encoder.ts).
 */
const PLAIN_MSGPACK = { encoding: 'msgpack' as const, useRecords: false, keyEncoder: KEY_ENCODER };

/** The embedded store's map: 1 GiB of address space (lmdb grows it when the file outgrows it). */
const DEFAULT_MAP_BYTES = 2 ** 30;

/** `mapBytes`: the map's initial size (tests: a small one, to make lmdb grow it). */
export function openDbs(path: string, opts: { durable: boolean; mapBytes?: number }): StoreDbs {
  const root = open({
    ...PLAIN_MSGPACK,
    path,
    // No lmdb-side cache: another process (the operator CLI) may write, and every read must see it.
    cache: false,
    // Throwaway stores (tests, snapshotPath null) skip the disk flush entirely.
    noSync: !opts.durable,
    overlappingSync: opts.durable,
    // One mapping of the whole file, not lmdb's chunked mapping (`remapChunks`). remap.ts gives the file's resident
    // pages back by closing and reopening the environment, and closing a chunked map unmapped it 64 KiB at a time:
    // ~130-340 munmap calls for an 8-21 MiB resident map, each one a TLB shootdown across the process's threads, so a
    // close took 20-50 ms on the event loop (every store call held meanwhile). One mapping closes in ~1 ms; a reopen
    // holds store calls for a few ms (median 3-5, at most 17 measured) instead of 34-59 (docs/memory.md, "What a reopen holds"). The map is address space
    // only (the file grows by its pages, not to this size); a file that outgrows it makes lmdb double the map.
    remapChunks: false,
    mapSize: opts.mapBytes ?? DEFAULT_MAP_BYTES,
    // Named databases below: 16 today (lmdb's default limit is exactly 12); room for more.
    maxDbs: 32,
  });
  const db = <V, K extends string | number | (string | number)[]>(name: string): Database<V, K> =>
    root.openDB<V, K>(name, PLAIN_MSGPACK);
  return {
    root,
    orgs: db('orgs'),
    teams: db('teams'),
    keys: db('keys'),
    keyByHash: db('key-by-hash'),
    accounts: db('accounts'),
    topUps: db('top-ups'),
    spend: db('spend'),
    ledger: db('ledger'),
    ledgerByRequest: db('ledger-by-request'),
    ledgerById: db('ledger-by-id'),
    kv: db('kv'),
    kvExpiry: db('kv-expiry'),
    kvGroups: db('kv-groups'),
    kvGroupCursor: db('kv-group-cursor'),
    meta: db('meta'),
  };
}

/**
 * Closes the environment without leaving its in-memory freelist behind. lmdb 3.5.6 keeps the free pages it read
 * (me_pghead) from one write transaction to the next, frees them when a transaction aborts, and does not free them
 * when the environment closes: every close after a write leaked them (~2 KB per close on a 27 MB file, 4,000 closes
 * with writes between them: brk heap 10.5 to 20.1 MiB; heaptrack: mdb_midl_need). So an empty write transaction is
 * aborted first, which frees them. It waits for the write lock: callers have let their own writes finish, and another
 * process (the operator CLI) holds it for one transaction at most.
 */
export async function closeDbs(dbs: StoreDbs): Promise<void> {
  dbs.root.transactionSync(() => ABORT);
  await dbs.root.close();
}

/** Values of every key starting with `orgId` in a database keyed by [orgId, ...]. */
export function* orgValues<V>(db: Database<V, OrgScoped>, orgId: string): Generator<V> {
  for (const { value } of db.getRange({ start: [orgId], end: [orgId, RANGE_END] })) yield value;
}
