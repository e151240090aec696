import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry, SettlementEntry } from '../../../src/store/contract.js';
import { openDbs } from '../../../src/store/memory/db.js';
import { decodeLedgerEntry, encodeLedgerEntry } from '../../../src/store/memory/ledger-codec.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';

const ORG = 'org-codec';

function entry(i: number, over: Partial<SettlementEntry> = {}): SettlementEntry {
  return {
    requestId: `req-${String(i).padStart(6, '0')}-${randomUUID()}`,
    orgId: ORG,
    keyId: 'key-1',
    teamId: i % 2 === 0 ? 'team-1' : null,
    user: i % 3 === 0 ? `user-${i}` : null,
    model: 'gpt-4o-mini',
    requestedModel: 'svc/auto',
    cost: 1_000 + i,
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: 1,
    cacheWriteTokens: 2,
    tokens: 30,
    tags: [`run=${i}`],
    hadHold: true,
    scopes: [{ source: 'key', id: 'key-1' }],
    status: 'ok',
    endpoint: '/v1/chat/completions',
    latencyMs: 12,
    at: 1_700_000_000_000 + i,
    ...over,
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('embedded store ledger entries', () => {
  it('are stored as tuples that decode to the same entry, in about half the bytes of a map', () => {
    const settled = entry(3);
    const e: LedgerEntry = { ...settled, balanceAfter: -5 };
    const stored = encodeLedgerEntry(settled, -5);
    expect(Array.isArray(stored)).toBe(true);
    expect(decodeLedgerEntry(stored)).toStrictEqual(e);
    expect(pack(stored).length).toBeLessThan(pack(e).length * 0.6);
  });

  it('written as maps by an earlier version are still listed, found and trimmed with their lookups', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-codec-'));
    dirs.push(dir);
    const dbPath = join(dir, 'store.lmdb');
    // What the previous version wrote: plain msgpack maps in `ledger`, the lookup, the account cursor.
    const dbs = openDbs(dbPath, { durable: true });
    dbs.meta.putSync('format', 1); // and the lookups below in format 1's index: the store upgrades them at open
    const old = [0, 1, 2].map((i) => ({ ...entry(i), balanceAfter: -(i + 1) * 1000 }));
    await dbs.root.transaction(() => {
      old.forEach((e, seq) => {
        dbs.ledger.putSync([ORG, seq], e);
        dbs.ledgerByRequest.putSync([ORG, e.requestId], seq);
      });
      dbs.accounts.putSync(ORG, { balance: -3000, next: 3, first: 0 });
    });
    await dbs.root.close();

    const store = new MemoryStore({ snapshotPath: join(dir, 'snapshot'), dbPath, ledgerCap: 4 });
    try {
      expect(await store.getLedgerEntry(ORG, old[1]!.requestId)).toStrictEqual(old[1]);
      expect(await store.listLedger(ORG)).toStrictEqual([...old].reverse());
      const fresh = [3, 4, 5].map((i) => entry(i));
      expect(await store.settle(fresh)).toEqual(fresh.map((e) => e.requestId));
      const listed = await store.listLedger(ORG);
      // Cap 4: the two oldest (maps) are trimmed, their lookups with them; the rest reads back whole.
      expect(listed.map((e) => e.requestId)).toEqual([...fresh].reverse().map((e) => e.requestId).concat(old[2]!.requestId));
      expect(listed[0]).toStrictEqual({ ...fresh[2], balanceAfter: (await store.getBalance(ORG)).balance });
      expect(await store.getLedgerEntry(ORG, old[0]!.requestId)).toBeNull();
      expect(await store.getLedgerEntry(ORG, old[1]!.requestId)).toBeNull();
      expect(await store.settle([old[2]!])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
