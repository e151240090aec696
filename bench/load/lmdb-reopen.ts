/**
 * Native memory left behind by reopening the embedded store's LMDB environment (remap.ts reopens it to give file
 * pages back): the store's own databases (openDbs, the gateway's options) are closed and opened REOPEN_N times, with
 * REOPEN_WRITE between two reopens, and the process's resident memory is printed by kind every REOPEN_EVERY reopens:
 * the brk heap (glibc's main arena), other anonymous memory (V8, thread arenas), the LMDB file's pages, and V8's heap.
 * Open descriptors, mappings of the file and mappings in all are printed at the end.
 *
 *   REOPEN_WRITE=settle   (default) what the gateway does between two reopens: REOPEN_SETTLE settlements (hold lookup,
 *                         then applySettlements in transactions of 52) on one organization whose ledger runs at its cap,
 *                         so the file's free pages are reused as in a long run
 *   REOPEN_WRITE=small    one small write transaction
 *   REOPEN_WRITE=none     no write
 *   REOPEN_RAW=1          close with lmdb's close() alone, as the store did before closeDbs (db.ts)
 *
 *   node --expose-gc dist/bench/load/lmdb-reopen.js
 *
 * Measured 2026-12-04 (lmdb 3.5.6, docs/memory.md "Reopens and native memory" and "The leak was lmdb's freelist"): with
 * REOPEN_RAW=1 and settle, the brk heap grows ~1.9 KB per reopen for good (16.7 to 21.4 MiB from 500 to 3,000 reopens;
 * lmdb frees its in-memory freelist when a write transaction aborts, not when the environment closes; heaptrack:
 * mdb_midl_need); with closeDbs, which aborts one first, it stays at 16.35 MiB from 1,000 to 3,000 (and, in a run of 8,000,
 * at 16.30-16.32 MiB from 500 to 8,000).
 * small: the brk heap rises ~20 MiB over the first ~1,000 reopens (malloc keeping freed buffers) and then stays flat.
 * none: +68 KB of brk heap and +17 KB of V8 heap per reopen, linear (why remap.ts reopens only after a write).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDbs, openDbs, type StoreDbs } from '../../src/store/memory/db.js';
import { applySettlements } from '../../src/store/memory/durable.js';
import { newRequestId } from '../../src/pipeline/request-id.js';
import { LEDGER_CAP } from '../../src/store/shared.js';
import { settlement } from '../../test/conformance/store-fixtures.js';

const N = Number(process.env.REOPEN_N ?? 2000);
const EVERY = Number(process.env.REOPEN_EVERY ?? 250);
const WRITE = process.env.REOPEN_WRITE ?? 'settle';
const SETTLE = Number(process.env.REOPEN_SETTLE ?? 2000);
/** Entries per settlement transaction: what the gateway's 50 ms flush at ~2,000 req/s makes (settleSliceSize). */
const PER_TXN = 52;
/** REOPEN_RAW=1: close with lmdb's close() alone, as the store did before closeDbs (which frees the freelist first). */
const RAW = process.env.REOPEN_RAW === '1';

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

/** SETTLE settlements as the gateway makes them: a hold's ledger lookup each, then transactions of PER_TXN entries. */
async function settle(dbs: StoreDbs): Promise<void> {
  for (let done = 0; done < SETTLE; done += PER_TXN) {
    const chunk = Array.from({ length: PER_TXN }, () => {
      const e = settlement('org-a', 'key-1', { requestId: newRequestId(), at: Date.now() });
      dbs.ledgerById.get([e.requestId, 'org-a']);
      return e;
    });
    await dbs.root.transaction(() => applySettlements(dbs, chunk, LEDGER_CAP));
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
const dir = mkdtempSync(join(tmpdir(), 'svc-lmdb-reopen-'));
const path = join(dir, 'store.lmdb');
try {
  let dbs: StoreDbs = openDbs(path, { durable: true });
  await dbs.root.transaction(() => {
    for (let i = 0; i < 1000; i++) void dbs.meta.put(`seed-${i}`, { i, pad: 'x'.repeat(100) });
    void dbs.accounts.put('org-a', { balance: 1e15, next: 0, first: 0 });
  });
  console.log(`| reopens | brk heap KiB | other anonymous KiB | LMDB file KiB | V8 heap used MiB |  (between two reopens: ${WRITE}; lmdb's close() alone: ${RAW})`);
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (let i = 0; i <= N; i++) {
    if (WRITE === 'small') await dbs.root.transaction(() => void dbs.meta.put('counter', i));
    if (WRITE === 'settle') await settle(dbs);
    dbs.meta.get(`seed-${i % 1000}`);
    await dbs.root.committed;
    await dbs.root.flushed;
    await (RAW ? dbs.root.close() : closeDbs(dbs));
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
  await closeDbs(dbs);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
