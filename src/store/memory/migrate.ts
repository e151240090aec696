/**
 * First start on the LMDB store: an existing msgpackr snapshot (the embedded store's former persistence) is
 * copied into the database in one transaction, then renamed `<file>.migrated` so it is never applied twice.
 * The database records where it came from in `meta`; a database that already has data is never overwritten.
 * A database of an earlier format is upgraded in place (DB_FORMAT).
 */
import { existsSync, renameSync } from 'node:fs';
import type { OrgScoped, StoreDbs } from './db.js';
import { trimLedger } from './durable.js';
import { encodeLedgerEntry } from './ledger-codec.js';
import { readSnapshot, unpackEntries } from './snapshot.js';

/**
 * 2: ledger entries are looked up by `[requestId, orgId]` (ledgerById, db.ts) instead of `[orgId, requestId]`
 * (ledgerByRequest). A format-1 database is upgraded at open (upgradeLedgerIndex); an older gateway refuses a format-2
 * one rather than miss its lookups.
 */
export const DB_FORMAT = 2;

/** Lookups moved per transaction by upgradeLedgerIndex. */
const UPGRADE_BATCH = 10_000;

/**
 * Format 1 to 2: copies every `[orgId, requestId] -> seq` of ledgerByRequest to ledgerById as `[requestId, orgId]`,
 * UPGRADE_BATCH per transaction, then empties ledgerByRequest and sets the format in one last transaction. A start
 * interrupted before that one copies again (the same puts) and finishes; until it, the format says 1. Returns the
 * lookups moved.
 */
export function upgradeLedgerIndex(dbs: StoreDbs): number {
  let moved = 0;
  let start: OrgScoped | undefined;
  for (;;) {
    // A range read per batch, after the previous batch's commit: no iterator is held across a write transaction.
    const batch = [...dbs.ledgerByRequest.getRange({ start, exclusiveStart: start !== undefined, limit: UPGRADE_BATCH })];
    if (batch.length === 0) break;
    dbs.root.transactionSync(() => {
      for (const { key, value } of batch) dbs.ledgerById.putSync([key[1], key[0]], value);
    });
    moved += batch.length;
    start = batch[batch.length - 1]!.key;
  }
  dbs.root.transactionSync(() => {
    if (dbs.meta.get('format') !== 1) return; // another process upgraded it meanwhile
    dbs.ledgerByRequest.clearSync();
    dbs.meta.putSync('format', DB_FORMAT);
  });
  return moved;
}

export interface MigrationResult {
  orgs: number;
  keys: number;
  ledgerEntries: number;
}

/** Marks a fresh database and migrates `snapshotPath` into it when present. Runs before serving. */
export function initDatabase(dbs: StoreDbs, snapshotPath: string | null, ledgerCap: number): MigrationResult | null {
  const format = dbs.meta.get('format');
  if (format !== undefined) {
    if (format === 1) upgradeLedgerIndex(dbs);
    else if (format !== DB_FORMAT) throw new Error(`embedded store database has format ${String(format)}, expected ${DB_FORMAT}`);
    return null;
  }
  const data = snapshotPath !== null && existsSync(snapshotPath) ? readSnapshot(snapshotPath) : null;
  const result: MigrationResult = { orgs: 0, keys: 0, ledgerEntries: 0 };
  let migrated = false;
  dbs.root.transactionSync(() => {
    // Re-checked under the write lock: another process (a gateway, the operator CLI) may have just done it.
    if (dbs.meta.get('format') !== undefined) return;
    if (data !== null) {
      migrated = true;
      for (const org of data.orgs) dbs.orgs.putSync(org.id, org);
      for (const team of data.teams) dbs.teams.putSync([team.orgId, team.id], team);
      for (const key of data.keys) {
        dbs.keys.putSync([key.orgId, key.id], key);
        dbs.keyByHash.putSync(key.hash, [key.orgId, key.id]);
      }
      const accounts = new Map(data.credits.map((c) => [c.orgId, { balance: c.balance, next: 0, first: 0 }]));
      for (const c of data.credits) for (const k of c.topUps) dbs.topUps.putSync([c.orgId, k], true);
      for (const s of data.spend) dbs.spend.putSync([s.orgId, s.group, s.value], s.counter);
      for (const l of data.ledger) {
        let acct = accounts.get(l.orgId);
        if (acct === undefined) accounts.set(l.orgId, (acct = { balance: 0, next: 0, first: 0 }));
        l.chunks.forEach((chunk, i) => {
          for (const e of unpackEntries(chunk).slice(i === 0 ? l.trimmed : 0)) {
            dbs.ledger.putSync([l.orgId, acct.next], encodeLedgerEntry(e, e.balanceAfter));
            dbs.ledgerById.putSync([e.requestId, l.orgId], acct.next);
            acct.next += 1;
            result.ledgerEntries += 1;
          }
        });
      }
      for (const [orgId, acct] of accounts) {
        trimLedger(dbs, orgId, acct, ledgerCap);
        dbs.accounts.putSync(orgId, acct);
      }
      for (const [k, json] of data.kv) dbs.kv.putSync(k, { json, expiresAt: null });
      result.orgs = data.orgs.length;
      result.keys = data.keys.length;
      dbs.meta.putSync('migratedFrom', snapshotPath);
    }
    dbs.meta.putSync('format', DB_FORMAT);
  });
  if (!migrated || snapshotPath === null) return null;
  // transactionSync commits and flushes before returning: the snapshot is set aside only once its copy is on disk.
  renameSync(snapshotPath, `${snapshotPath}.migrated`);
  return result;
}
