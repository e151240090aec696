/**
 * The embedded store maps its file in one piece (src/store/memory/db.ts): remap.ts closes and reopens the environment
 * to give resident file pages back, and a chunked map was unmapped 64 KiB at a time on the event loop. With one
 * mapping, the map must still grow when the file outgrows it (lmdb doubles it), across transactions and reopenings,
 * without losing a write.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open } from 'lmdb';
import { closeDbs, openDbs } from '../../../src/store/memory/db.js';

/** Lines of /proc/self/maps that map `file`. */
function mappingsOf(file: string): number {
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(file)).length;
}

const VALUE = 'v'.repeat(1000);

describe('the embedded store map', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-db-map-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(existsSync('/proc/self/maps'))('maps the data file once, however much of it is read', async () => {
    const path = join(dir, 'store.lmdb');
    const dbs = openDbs(path, { durable: true });
    try {
      for (let t = 0; t < 8; t++) {
        await dbs.root.transaction(() => {
          for (let i = 0; i < 500; i++) void dbs.meta.put(`k-${t}-${i}`, VALUE);
        });
      }
      let read = 0;
      for (const { value } of dbs.meta.getRange({})) read += (value as string).length;
      expect(read).toBe(8 * 500 * VALUE.length);
      expect(mappingsOf(path)).toBe(1);
    } finally {
      await closeDbs(dbs);
    }
    expect(mappingsOf(path)).toBe(0);
  });

  it('grows a map the file outgrows, and keeps every write across reopenings', async () => {
    const path = join(dir, 'store.lmdb');
    const mapBytes = 256 * 1024;
    for (let round = 0; round < 3; round++) {
      const dbs = openDbs(path, { durable: true, mapBytes });
      for (let t = 0; t < 6; t++) {
        await dbs.root.transaction(() => {
          for (let i = 0; i < 200; i++) void dbs.meta.put(`r${round}-t${t}-${i}`, VALUE);
        });
      }
      await closeDbs(dbs);
    }
    const dbs = openDbs(path, { durable: true, mapBytes });
    try {
      let n = 0;
      for (const { key, value } of dbs.meta.getRange({})) {
        expect(key).toMatch(/^r\d-t\d-\d+$/);
        expect(value).toBe(VALUE);
        n++;
      }
      expect(n).toBe(3 * 6 * 200); // ~3.6 MB of values in a map opened at 256 KiB
    } finally {
      await closeDbs(dbs);
    }
  });

  it('opens a file an earlier version wrote through a chunked map (its meta records a 4 EiB map)', async () => {
    const path = join(dir, 'store.lmdb');
    const old = open({ path, encoding: 'msgpack', remapChunks: true, maxDbs: 32 });
    const meta = old.openDB<string, string>('meta', { encoding: 'msgpack' });
    await old.transaction(() => {
      for (let i = 0; i < 300; i++) void meta.put(`old-${i}`, VALUE);
    });
    await old.close();
    const dbs = openDbs(path, { durable: true });
    try {
      expect(dbs.meta.get('old-0')).toBe(VALUE);
      expect(dbs.meta.get('old-299')).toBe(VALUE);
      await dbs.meta.put('new', 'written by the one-mapping store');
    } finally {
      await closeDbs(dbs);
    }
    const again = openDbs(path, { durable: true });
    try {
      expect(again.meta.get('new')).toBe('written by the one-mapping store');
      expect([...again.meta.getKeys({})].length).toBe(301);
    } finally {
      await closeDbs(again);
    }
  });
});
