/**
 * The embedded store's former persistence format: one msgpackr file with the whole durable state. It is only
 * read now, to migrate it into the LMDB database on first start (migrate.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import type { KeyRecord, LedgerEntry, OrgRecord, SpendGroup, TeamRecord } from '../contract.js';
import type { Counter } from './db.js';

export const SNAPSHOT_VERSION = 2;

export interface SnapshotData {
  v: number;
  orgs: OrgRecord[];
  teams: TeamRecord[];
  keys: KeyRecord[];
  credits: { orgId: string; balance: number; topUps: string[] }[];
  spend: { orgId: string; group: SpendGroup; value: string; counter: Counter }[];
  /**
   * Each org's ledger, oldest first, as msgpack-encoded arrays of entries (see OrgBook); the first `trimmed`
   * entries of the first chunk are beyond the cap and not restored.
   */
  ledger: { orgId: string; trimmed: number; chunks: Uint8Array[] }[];
  /** kv entries without TTL: [key, JSON text]. */
  kv: [string, string][];
}

// Plain maps/arrays only (no records extension), as the snapshot writer used.
export const snapshotPackr = new Packr({ useRecords: false, mapsAsObjects: true });
const packr = snapshotPackr;

export function unpackEntries(chunk: Uint8Array): LedgerEntry[] {
  return packr.unpack(chunk) as LedgerEntry[];
}

export function readSnapshot(path: string): SnapshotData | null {
  if (!existsSync(path)) return null;
  const data = packr.unpack(readFileSync(path)) as SnapshotData;
  if (data.v !== SNAPSHOT_VERSION) {
    throw new Error(`memory store snapshot ${path} has version ${String(data.v)}, expected ${SNAPSHOT_VERSION}`);
  }
  return data;
}
