/**
 * closeDbs (src/store/memory/db.ts) aborts an empty write transaction before closing the environment, so that lmdb frees
 * its in-memory freelist (bench/load/lmdb-reopen.ts measures the leak it prevents). The abort must never cost a write:
 * a close right after writes were queued, with or without a turn of the event loop in between, keeps every one of
 * them, and reopening and closing again and again neither hangs nor loses anything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDbs, openDbs } from '../../../src/store/memory/db.js';

describe('closeDbs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-db-close-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every write queued before the close, over many reopens', async () => {
    const path = join(dir, 'store.lmdb');
    for (let round = 0; round < 40; round++) {
      const dbs = openDbs(path, { durable: true });
      const writes: Promise<unknown>[] = [];
      for (let t = 0; t < 10; t++) {
        writes.push(
          dbs.root.transaction(() => {
            for (let i = 0; i < 50; i++) void dbs.meta.put(`r${round}-t${t}-${i}`, 'x'.repeat(200));
            if (round > 0) void dbs.meta.remove(`r${round - 1}-t${t}-0`); // frees pages: the freelist is in use
          }),
        );
      }
      writes.push(dbs.meta.put(`solo-${round}`, round));
      if (round % 2 === 1) await new Promise((r) => setImmediate(r));
      await closeDbs(dbs);
      const settled = await Promise.allSettled(writes);
      expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
    }
    const dbs = openDbs(path, { durable: true });
    try {
      for (let round = 0; round < 40; round++) {
        expect(dbs.meta.get(`solo-${round}`)).toBe(round);
        expect(dbs.meta.get(`r${round}-t9-49`)).toBe('x'.repeat(200));
        expect(dbs.meta.get(`r${round}-t3-0`)).toBe(round === 39 ? 'x'.repeat(200) : undefined);
      }
    } finally {
      await closeDbs(dbs);
    }
  });
});
