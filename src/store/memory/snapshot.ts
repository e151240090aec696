/**
 * Memory-store persistence: one msgpackr file, replaced atomically (write tmp, fsync, rename) so a crash
 * mid-write leaves the previous snapshot intact. Holds, windows and leases are deliberately absent: they
 * expire within minutes and a restart is allowed to forget them.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import type { KeyRecord, LedgerEntry, OrgRecord, SpendGroup, TeamRecord } from '../contract.js';
import type { Counter } from './ledger.js';

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

// Plain maps/arrays only (no records extension) so the file stays readable by any msgpack decoder.
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

/** Debounced, serialised snapshot writes. `produce` is called at write time so the newest state is saved. */
export class SnapshotWriter {
  readonly #path: string;
  readonly #produce: () => SnapshotData;
  readonly #onError: (err: unknown) => void;
  #timer: NodeJS.Timeout | null = null;
  #due = Number.POSITIVE_INFINITY;
  #chain: Promise<void> = Promise.resolve();

  constructor(path: string, produce: () => SnapshotData, onError: (err: unknown) => void) {
    this.#path = path;
    this.#produce = produce;
    this.#onError = onError;
  }

  /** Writes within `delayMs` (an earlier pending write is kept, a later one is pulled forward). */
  schedule(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (this.#timer !== null && this.#due <= due) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#due = due;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#due = Number.POSITIVE_INFINITY;
      this.#enqueue().catch(this.#onError);
    }, delayMs);
  }

  /** Cancels any pending timer and writes now; resolves once the file is in place. */
  async flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#due = Number.POSITIVE_INFINITY;
    await this.#enqueue();
  }

  #enqueue(): Promise<void> {
    const run = this.#chain.then(() => this.#write());
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async #write(): Promise<void> {
    const bytes = packr.pack(this.#produce());
    const tmp = `${this.#path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(bytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    try {
      await rename(tmp, this.#path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
