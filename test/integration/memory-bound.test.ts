/**
 * Per-request retention: thousands of requests through the real gateway (uWS app, simulator, settlement)
 * on the embedded store (LMDB on disk) and on Redis must leave the heap and the ArrayBuffer memory where
 * they were after warm-up. The issue measured ~8 KB retained per request; the bounds below allow well
 * under 1 KB per request, so any per-request leak of that kind fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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

async function settled(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage();
}

async function measure(t: TestGateway): Promise<{ heap: number; arrayBuffers: number; rss: number }> {
  const pool = new Pool(t.url, { connections: CONCURRENCY });
  try {
    await drive(t, pool, WARMUP);
    const before = await settled();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    await drive(t, pool, MEASURED);
    loop.disable();
    const after = await settled();
    const growth = { heap: after.heapUsed - before.heapUsed, arrayBuffers: after.arrayBuffers - before.arrayBuffers, rss: after.rss - before.rss };
    process.stdout.write(
      `[memory ${t.store.kind}] ${MEASURED} requests: heap ${(before.heapUsed / 2 ** 20).toFixed(1)} -> ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB, ` +
        `arrayBuffers ${(before.arrayBuffers / 2 ** 20).toFixed(1)} -> ${(after.arrayBuffers / 2 ** 20).toFixed(1)} MiB, ` +
        `rss ${(before.rss / 2 ** 20).toFixed(0)} -> ${(after.rss / 2 ** 20).toFixed(0)} MiB; ` +
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
    } finally {
      await t.close();
    }
  }, 300_000);
});
