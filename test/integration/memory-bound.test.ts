/**
 * Per-request retention: thousands of requests through the real gateway (uWS app, simulator, settlement)
 * on the embedded store (LMDB on disk) and on Redis must leave the heap and the ArrayBuffer memory where
 * they were after warm-up, and resident memory within a bound. The issue measured ~8 KB retained per request; the bounds below allow well
 * under 1 KB per request, so any per-request leak of that kind fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const WARMUP = 1_500;
const MEASURED = Number(process.env.SVC_LEAK_REQUESTS ?? 5_000);
const CONCURRENCY = 16;
/**
 * Allowed growth over MEASURED requests (heap after GC, and ArrayBuffer bytes). What remains after the fixes
 * is JIT code and feedback vectors (about 1 MiB, flat after warm-up, by heap-snapshot diff); 256 B per
 * request of headroom still fails a leak a tenth the size of the one in the issue.
 */
const BOUND_BYTES = Math.max(2 * 1024 * 1024, MEASURED * 256);
/**
 * Allowed resident-memory growth over the second half of the measured requests (this test process: gateway,
 * simulator and vitest; forks pool, run serially), in two parts from /proc/self/smaps_rollup. The first half
 * is left out: allocator arenas and the JIT still settle there. Anonymous memory (what the process owns:
 * V8 heaps, native buffers, malloc): measured +0.6 to +4 MiB over 2,500 requests, with runs up to +10 MiB on
 * a loaded machine; the 8 KB per request would add 20 MiB. File-backed pages: the LMDB pages the
 * embedded store touches, about 0.65 KB per request until the ledger cap (bench/results/memory.md),
 * reclaimable by the kernel but counted in RSS.
 */
const ANON_BOUND_BYTES = 14 * 1024 * 1024;
const FILE_BOUND_BYTES = 1024 * 1024 + (MEASURED / 2) * 2048;

async function drive(t: TestGateway, pool: Pool, count: number): Promise<void> {
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const stream = i % 4 === 0;
      const res = await pool.request({
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'x-svc-tags': `run=${i % 7}` },
        // Distinct user and prompt per request: per-request names must not become retained state.
        body: JSON.stringify({ model: 'gpt-4o-mini', user: `u-${i}`, messages: [{ role: 'user', content: `request ${i}` }], max_tokens: 8, stream }),
      });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`request ${i}: ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  await t.gw.deps.settlement.flush();
}

/** Resident anonymous memory (KiB -> bytes) and file-backed pages, from /proc/self/smaps_rollup. */
function residentKinds(): { anon: number; file: number } {
  const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { anon: kib('Anonymous'), file: kib('Rss') - kib('Anonymous') };
}

async function settled(): Promise<NodeJS.MemoryUsage & { anon: number; file: number }> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ...process.memoryUsage(), ...residentKinds() };
}

async function measure(t: TestGateway): Promise<{ heap: number; arrayBuffers: number; secondHalfAnon: number; secondHalfFile: number }> {
  const pool = new Pool(t.url, { connections: CONCURRENCY });
  try {
    await drive(t, pool, WARMUP);
    const before = await settled();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    await drive(t, pool, Math.floor(MEASURED / 2));
    const mid = await settled();
    await drive(t, pool, MEASURED - Math.floor(MEASURED / 2));
    loop.disable();
    const after = await settled();
    const growth = { heap: after.heapUsed - before.heapUsed, arrayBuffers: after.arrayBuffers - before.arrayBuffers, secondHalfAnon: after.anon - mid.anon, secondHalfFile: after.file - mid.file };
    process.stdout.write(
      `[memory ${t.store.kind}] ${MEASURED} requests: heap ${(before.heapUsed / 2 ** 20).toFixed(1)} -> ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB, ` +
        `arrayBuffers ${(before.arrayBuffers / 2 ** 20).toFixed(1)} -> ${(after.arrayBuffers / 2 ** 20).toFixed(1)} MiB, ` +
        `rss ${(before.rss / 2 ** 20).toFixed(0)} -> ${(mid.rss / 2 ** 20).toFixed(0)} (half) -> ${(after.rss / 2 ** 20).toFixed(0)} MiB ` +
        `(anonymous ${(before.anon / 2 ** 20).toFixed(1)} -> ${(mid.anon / 2 ** 20).toFixed(1)} -> ${(after.anon / 2 ** 20).toFixed(1)}, file-backed ${(before.file / 2 ** 20).toFixed(1)} -> ${(mid.file / 2 ** 20).toFixed(1)} -> ${(after.file / 2 ** 20).toFixed(1)}), ` +
        `heapTotal ${(before.heapTotal / 2 ** 20).toFixed(1)} -> ${(after.heapTotal / 2 ** 20).toFixed(1)} MiB; ` +
        `event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms\n`,
    );
    return growth;
  } finally {
    await pool.close();
  }
}

describe('no per-request retention over a sustained run', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('embedded store (LMDB on disk)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-leak-'));
    const store = await createStore({ kind: 'memory', snapshotPath: join(dir, 'store.msgpack') });
    const t = await startTestGateway({ store, config: { guardrails: { mode: 'off' }, keyCacheTtlMs: 5_000 }, keepLogs: false });
    try {
      const growth = await measure(t);
      expect(growth.heap).toBeLessThan(BOUND_BYTES);
      expect(growth.arrayBuffers).toBeLessThan(BOUND_BYTES);
      expect(growth.secondHalfAnon).toBeLessThan(ANON_BOUND_BYTES);
      expect(growth.secondHalfFile).toBeLessThan(FILE_BOUND_BYTES);
      expect((await t.store.listLedger(t.orgId, { limit: 100_000 })).length).toBe(WARMUP + MEASURED);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('redis store', async () => {
    const store = await createStore({ kind: 'redis', url: redis.url });
    const t = await startTestGateway({ store, config: { guardrails: { mode: 'off' }, keyCacheTtlMs: 5_000 }, keepLogs: false });
    try {
      const growth = await measure(t);
      expect(growth.heap).toBeLessThan(BOUND_BYTES);
      expect(growth.arrayBuffers).toBeLessThan(BOUND_BYTES);
      expect(growth.secondHalfAnon).toBeLessThan(ANON_BOUND_BYTES);
      expect(growth.secondHalfFile).toBeLessThan(FILE_BOUND_BYTES);
    } finally {
      await t.close();
    }
  }, 300_000);
});
