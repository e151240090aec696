/**
 * Micro-benchmark: CPU per settlement entry (every thread of the process, user and system: lmdb commits on the libuv
 * pool, their fdatasync) against the entries applied per LMDB transaction, on a durable database in the temp dir.
 * The measurement behind SETTLE_CHUNK (src/store/memory/settle-slices.ts).
 *
 *   node dist/bench/micro/settle-slices.js          (SIZES=16,64,256 entries per transaction; N=9600 entries each)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettlementEntry } from '../../src/store/contract.js';
import { openDbs } from '../../src/store/memory/db.js';
import { applySettlements } from '../../src/store/memory/durable.js';
import { LEDGER_CAP } from '../../src/store/shared.js';
import { newRequestId } from '../../src/pipeline/request-id.js';
import { settlement } from '../../test/conformance/store-fixtures.js';

const SIZES = (process.env['SIZES'] ?? '16,64,256').split(',').map(Number);
const N = Number(process.env['N'] ?? 9600);

const dir = mkdtempSync(join(tmpdir(), 'svc-settle-bench-'));
const dbs = openDbs(join(dir, 'store.lmdb'), { durable: true });
await dbs.root.transaction(() => dbs.accounts.putSync('org-a', { balance: 1e15, next: 0, first: 0 }));

// A production-shaped entry: a time-ordered request id (the ledger lookup grows at its tail, as in the gateway).
const entry = (): SettlementEntry => settlement('org-a', 'key-1', { requestId: newRequestId(), at: Date.now() });

process.stdout.write('| entries per transaction | CPU per entry, user / sys (us) | transaction body on the event loop per entry (us) |\n|---:|---:|---:|\n');
try {
  for (const size of SIZES) {
    const cpu0 = process.cpuUsage();
    let bodyMs = 0;
    for (let i = 0; i < N; i += size) {
      const chunk = Array.from({ length: size }, entry);
      await dbs.root.transaction(() => {
        const t = performance.now();
        applySettlements(dbs, chunk, LEDGER_CAP);
        bodyMs += performance.now() - t;
      });
    }
    await dbs.root.flushed;
    const c = process.cpuUsage(cpu0);
    process.stdout.write(`| ${size} | ${(c.user / N).toFixed(1)} / ${(c.system / N).toFixed(1)} | ${((bodyMs * 1000) / N).toFixed(1)} |\n`);
  }
} finally {
  await dbs.root.close();
  rmSync(dir, { recursive: true, force: true });
}
