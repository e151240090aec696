/**
 * "Nothing answered is ever left unbilled": the real gateway process under concurrent load is killed with
 * SIGKILL, restarted on the same data directory, and the ledger must then hold every answer the clients
 * received, once, each at the cost the client was told (x-svc-request-cost, or the stream's usage comment).
 * Settlement is configured to flush only once a minute, so without the journal the ledger would be empty:
 * everything the test finds was recovered by the replay at start-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NANO_PER_USD } from '../../src/billing/money.js';
import { DEV_ORG_ID } from '../../src/dev/bootstrap.js';
import type { Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { startGatewayProcess, stopGatewayProcess } from '../helpers/gateway-process.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const KEY = 'sk-svc-sigkill-test-key-0123456789abcdefghijklmnop';
const CONNECTIONS = 32;
const LOAD_MS = 3_000;

/** "0.000012345" (formatUsd) -> 12345 nano-USD, exactly. */
function parseUsd(s: string): number {
  const [whole = '0', frac = ''] = s.split('.');
  return Number(whole) * NANO_PER_USD + Number(frac.padEnd(9, '0'));
}

interface Answer {
  id: string;
  cost: number;
}

/** One client connection's loop: a request at a time until `stop`; records only fully received answers. */
async function client(url: string, n: number, stop: { v: boolean }, answers: Answer[]): Promise<void> {
  for (let i = 0; !stop.v; i++) {
    const stream = (n + i) % 4 === 0;
    try {
      const res = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `c${n} r${i}` }], max_tokens: 8, stream }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) continue;
      const id = String(res.headers['x-svc-request-id']);
      if (!stream) {
        answers.push({ id, cost: parseUsd(String(res.headers['x-svc-request-cost'])) });
        continue;
      }
      // A stream is an answer once its end arrived; its cost is in the usage comment before [DONE].
      const usage = /^: x-svc-usage (\{.*\})$/m.exec(text);
      if (!text.includes('data: [DONE]') || !usage?.[1]) continue;
      answers.push({ id, cost: parseUsd((JSON.parse(usage[1]) as { cost: string }).cost) });
    } catch {
      // the process was killed mid-request: no answer
    }
  }
}

async function runCase(env: Record<string, string>, openStore: (dataDir: string) => Promise<Store>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sigkill-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ settlement: { batchSize: 100_000, flushMs: 60_000 }, dev: { creditUsd: 1_000 } }));
  const base = { ...env, SVC_DATA_DIR: join(dir, 'data'), SVC_CONFIG: config, SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY };
  try {
    const first = await startGatewayProcess(base);
    const stop = { v: false };
    const answers: Answer[] = [];
    const loops = Array.from({ length: CONNECTIONS }, (_, n) => client(first.url, n, stop, answers));
    await new Promise((r) => setTimeout(r, LOAD_MS));
    first.child.kill('SIGKILL');
    await first.exited;
    stop.v = true;
    await Promise.all(loops);
    expect(answers.length).toBeGreaterThan(20); // hundreds on an idle machine; fewer under a loaded one

    const second = await startGatewayProcess(base);
    await stopGatewayProcess(second); // graceful: the replayed batch is in the store
    const store = await openStore(base.SVC_DATA_DIR);
    try {
      const ledger = await store.listLedger(DEV_ORG_ID, { limit: 100_000 });
      const byId = new Map(ledger.map((e) => [e.requestId, e]));
      expect(byId.size).toBe(ledger.length); // each request charged once
      const missing = answers.filter((a) => !byId.has(a.id));
      expect(missing).toEqual([]);
      for (const a of answers) expect(byId.get(a.id)?.cost).toBe(a.cost);
      // Nothing billed that no client received (an answer cut off by the kill may be at most in flight).
      const answered = new Set(answers.map((a) => a.id));
      const unreceived = ledger.filter((e) => !answered.has(e.requestId));
      expect(unreceived.length).toBeLessThanOrEqual(CONNECTIONS);
      const total = answers.reduce((s, a) => s + a.cost, 0) + unreceived.reduce((s, e) => s + e.cost, 0);
      const bal = await store.getBalance(DEV_ORG_ID);
      expect(bal.balance).toBe(1_000 * NANO_PER_USD - total);
      process.stdout.write(
        `[sigkill ${store.kind}] answers received ${answers.length}, ledger ${ledger.length}, unreceived-but-billed ${unreceived.length}\n`,
      );
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SIGKILL under load, then restart: the ledger equals the answers received', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('embedded store', async () => {
    await runCase({}, (dataDir) => createStore({ kind: 'memory', snapshotPath: join(dataDir, 'store.msgpack') }));
  }, 60_000);

  it('redis store (local journal)', async () => {
    await runCase({ SVC_REDIS_URL: redis.url }, () => createStore({ kind: 'redis', url: redis.url }));
  }, 60_000);
});
