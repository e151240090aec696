import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettlementEntry } from '../../../src/store/contract.js';
import { closeDbs, openDbs, type StoreDbs } from '../../../src/store/memory/db.js';
import { encodeLedgerEntry } from '../../../src/store/memory/ledger-codec.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';
import { DB_FORMAT } from '../../../src/store/memory/migrate.js';
import { settlementEntry } from '../../helpers/settlement-entry.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-index-'));
  dirs.push(dir);
  return join(dir, 'store.lmdb');
}

const entry = (org: string, i: number): SettlementEntry => settlementEntry({ requestId: `req-${org}-${String(i).padStart(6, '0')}`, orgId: org, cost: 10 });

/** What format 1 wrote: `n` ledger entries for each org, their `[orgId, requestId]` lookups, the accounts. */
function writeFormat1(dbs: StoreDbs, orgs: string[], n: number): void {
  dbs.root.transactionSync(() => {
    dbs.meta.putSync('format', 1);
    for (const org of orgs) {
      for (let i = 0; i < n; i++) {
        dbs.ledger.putSync([org, i], encodeLedgerEntry(entry(org, i), -10 * (i + 1)));
        dbs.ledgerByRequest.putSync([org, entry(org, i).requestId], i);
      }
      dbs.accounts.putSync(org, { balance: -10 * n, next: n, first: 0 });
    }
  });
}

describe('embedded store: the ledger lookup by request id (format 2)', () => {
  it('a format-1 database is upgraded at open: every lookup moved, settled ids still refused, trimming removes moved lookups', async () => {
    const path = dbPath();
    const orgs = ['org-a', 'org-b'];
    const n = 12_000; // 24,000 lookups: three upgrade transactions
    const old = openDbs(path, { durable: true });
    writeFormat1(old, orgs, n);
    await closeDbs(old);

    const store = new MemoryStore({ snapshotPath: null, dbPath: path, ledgerCap: n + 5 });
    try {
      for (const org of orgs) {
        for (const i of [0, 9_999, 10_000, n - 1]) expect((await store.getLedgerEntry(org, entry(org, i).requestId))?.balanceAfter).toBe(-10 * (i + 1));
        // Already settled before the upgrade: refused again, nothing debited.
        expect(await store.settle([entry(org, 0), entry(org, n - 1)])).toEqual([]);
        expect((await store.getBalance(org)).balance).toBe(-10 * n);
      }
      expect(await store.getLedgerEntry('org-b', entry('org-a', 5).requestId)).toBeNull(); // another org's id
      // Ten new entries over a cap of n + 5: the five oldest go, and their moved lookups with them.
      const fresh = Array.from({ length: 10 }, (_, k) => entry('org-a', n + k));
      expect(await store.settle(fresh)).toHaveLength(10);
      for (let i = 0; i < 5; i++) expect(await store.getLedgerEntry('org-a', entry('org-a', i).requestId)).toBeNull();
      expect(await store.getLedgerEntry('org-a', entry('org-a', 5).requestId)).not.toBeNull();
    } finally {
      await store.close();
    }
    const after = openDbs(path, { durable: true });
    try {
      expect(after.meta.get('format')).toBe(DB_FORMAT);
      expect(after.ledgerByRequest.getCount()).toBe(0);
      expect(after.ledgerById.getCount()).toBe(2 * n + 10 - 5);
    } finally {
      await closeDbs(after);
    }
  });

  it('an upgrade that stopped before its last transaction is finished by the next start', async () => {
    const path = dbPath();
    const dbs = openDbs(path, { durable: true });
    writeFormat1(dbs, ['org-a'], 50);
    // Half copied, format still 1: as if the process died between two upgrade transactions.
    dbs.root.transactionSync(() => {
      for (let i = 0; i < 25; i++) dbs.ledgerById.putSync([entry('org-a', i).requestId, 'org-a'], i);
    });
    await closeDbs(dbs);
    const store = new MemoryStore({ snapshotPath: null, dbPath: path });
    try {
      for (let i = 0; i < 50; i += 7) expect((await store.getLedgerEntry('org-a', entry('org-a', i).requestId))?.requestId).toBe(entry('org-a', i).requestId);
      expect(await store.settle([entry('org-a', 49)])).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('the same request id is settled once for each organization', async () => {
    const store = new MemoryStore({ snapshotPath: null, dbPath: dbPath() });
    try {
      const a = settlementEntry({ requestId: 'shared-id', orgId: 'org-a', cost: 7 });
      const b = { ...a, orgId: 'org-b' };
      expect(await store.settle([a, b, a])).toEqual(['shared-id', 'shared-id']);
      expect(await store.settle([b])).toEqual([]);
      expect((await store.getBalance('org-a')).balance).toBe(-7);
      expect((await store.getBalance('org-b')).balance).toBe(-7);
      expect((await store.getLedgerEntry('org-b', 'shared-id'))?.orgId).toBe('org-b');
    } finally {
      await store.close();
    }
  });

  it('a database of a later format is refused, not read', async () => {
    const path = dbPath();
    const dbs = openDbs(path, { durable: true });
    dbs.root.transactionSync(() => dbs.meta.putSync('format', DB_FORMAT + 1));
    await closeDbs(dbs);
    expect(() => new MemoryStore({ snapshotPath: null, dbPath: path })).toThrow(/format 3, expected 2/);
  });
});
