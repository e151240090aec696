/**
 * Native memory left behind by reopening the embedded store's LMDB environment (remap.ts reopens it to give file
 * pages back): the store's own databases (openDbs, the gateway's options) are closed and opened REOPEN_N times, with
 * one small write transaction between two reopens or none (REOPEN_WRITE=0), and the process's resident memory is
 * printed by kind every REOPEN_EVERY reopens: the brk heap (glibc's main arena), other anonymous memory (V8, thread
 * arenas), the LMDB file's pages, and V8's heap. Open descriptors, mappings of the file and mappings in all are printed
 * at the end (constant over 300 against 1,200 reopens: the environments are closed and no write thread's stack is left).
 *
 *   node --expose-gc dist/bench/load/lmdb-reopen.js                  # 4,000 reopens, a write between two
 *   REOPEN_WRITE=0 node --expose-gc dist/bench/load/lmdb-reopen.js   # no write between two reopens
 *
 * Measured 2026-12-04 (lmdb 3.5.6, docs/memory.md "Reopens and native memory"): with no write, per reopen and linear,
 * +68 KB of brk heap and +19 KB of other anonymous memory (+17 KB of it V8 heap); with a write, the brk heap flat after the
 * first ~1,000 reopens and other anonymous memory +3.5 KB per reopen.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDbs, type StoreDbs } from '../../src/store/memory/db.js';

const N = Number(process.env.REOPEN_N ?? 4000);
const EVERY = Number(process.env.REOPEN_EVERY ?? 500);
const WRITE = process.env.REOPEN_WRITE !== '0';

/** Resident KiB of this process by kind of mapping. */
function residentKiB(file: string): { brk: number; anon: number; file: number } {
  const out = { brk: 0, anon: 0, file: 0 };
  let kind: keyof typeof out | null = 'anon';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind = name === '[heap]' ? 'brk' : name === '' ? 'anon' : name.includes(file) ? 'file' : null;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind !== null) out[kind] += Number(rss[1]);
  }
  return out;
}

const gc = (globalThis as { gc?: () => void }).gc;
const dir = mkdtempSync(join(tmpdir(), 'svc-lmdb-reopen-'));
const path = join(dir, 'store.lmdb');
try {
  let dbs: StoreDbs = openDbs(path, { durable: true });
  await dbs.root.transaction(() => {
    for (let i = 0; i < 1000; i++) void dbs.meta.put(`seed-${i}`, { i, pad: 'x'.repeat(100) });
  });
  console.log(`| reopens | brk heap KiB | other anonymous KiB | LMDB file KiB | V8 heap used MiB |  (a write between two reopens: ${WRITE})`);
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (let i = 0; i <= N; i++) {
    if (WRITE) await dbs.root.transaction(() => void dbs.meta.put('counter', i));
    dbs.meta.get(`seed-${i % 1000}`);
    await dbs.root.committed;
    await dbs.root.flushed;
    await dbs.root.close();
    dbs = openDbs(path, { durable: true });
    if (i % EVERY === 0) {
      gc?.();
      const r = residentKiB(path);
      console.log(`| ${i} | ${r.brk} | ${r.anon} | ${r.file} | ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} |`);
    }
  }
  const maps = readFileSync('/proc/self/maps', 'utf8').split('\n');
  const ofFile = maps.filter((l) => l.includes(path)).length;
  console.log(`open descriptors ${readdirSync('/proc/self/fd').length}, mappings of the file ${ofFile}, mappings in all ${maps.length}`);
  await dbs.root.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
