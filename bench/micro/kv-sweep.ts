/**
 * Micro-benchmark: the embedded store's kv sweep with many live entries (stored responses keep 24 h of them),
 * the former full scan of the kv table against the expiry-index sweep (src/store/memory/kv-expiry.ts).
 * LIVE (200000) live entries of ~400 bytes and EXPIRED (500) expired ones in a throwaway database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDbs } from '../../src/store/memory/db.js';
import { putKv, sweepExpiredKv } from '../../src/store/memory/kv-expiry.js';
import { KV_SWEEP_BATCH } from '../../src/store/memory/memory-store.js';

const LIVE = Number(process.env.LIVE ?? 200_000);
const EXPIRED = Number(process.env.EXPIRED ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'svc-kv-sweep-'));
const dbs = openDbs(join(dir, 'store.lmdb'), { durable: false });
const now = Date.now();
const json = JSON.stringify({ id: 'resp_x', output: 'x'.repeat(400) });
for (let i = 0; i < LIVE; i += 5_000) {
  dbs.root.transactionSync(() => {
    for (let j = i; j < Math.min(LIVE, i + 5_000); j++) putKv(dbs, `resp:${j}`, { json, expiresAt: now + 86_400_000 });
  });
}
dbs.root.transactionSync(() => {
  for (let j = 0; j < EXPIRED; j++) putKv(dbs, `old:${j}`, { json, expiresAt: now - 1 - j });
});

// The former sweep: every kv entry read on the event loop to find the expired ones.
let t = performance.now();
let found = 0;
for (const { value } of dbs.kv.getRange()) if (value.expiresAt !== null && value.expiresAt <= now) found++;
const scanMs = performance.now() - t;

t = performance.now();
let swept = 0;
let batches = 0;
let longest = 0;
for (;;) {
  const b = performance.now();
  const n = dbs.root.transactionSync(() => sweepExpiredKv(dbs, now, KV_SWEEP_BATCH));
  longest = Math.max(longest, performance.now() - b);
  swept += n;
  batches++;
  if (n < KV_SWEEP_BATCH) break;
}
const sweepMs = performance.now() - t;
process.stdout.write(
  `live ${LIVE}, expired ${found}: full scan ${scanMs.toFixed(1)} ms in one turn; ` +
    `index sweep ${sweepMs.toFixed(1)} ms for ${swept} entries in ${batches} transactions (longest ${longest.toFixed(1)} ms, synchronous commits included)\n`,
);
await dbs.root.close();
rmSync(dir, { recursive: true, force: true });
