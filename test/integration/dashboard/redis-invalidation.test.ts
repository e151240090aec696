/**
 * Key-cache invalidation over Redis pub/sub: two gateway instances, each on its own Redis connection with a
 * 60 s key cache, the dashboard and the operator CLI on a third. Key and organization changes bite on the
 * very next request of both instances; a lost subscriber connection is logged and falls back to a short TTL.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { chat, LONG_KEY_CACHE_TTL_MS, lowerRpmBitesAtOnce, orgSuspensionBitesAtOnce, ORIGIN, type Setup } from '../../helpers/invalidation-cases.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

let redis: RedisServer;
let dashStore: Store;
let dash: Dashboard;
let a: TestGateway;
let b: TestGateway;
let setup: Setup;

beforeAll(async () => {
  redis = await startRedisServer();
  const config = { guardrails: { mode: 'off' }, keyCacheTtlMs: LONG_KEY_CACHE_TTL_MS };
  a = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config });
  b = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config });
  dashStore = await createStore({ kind: 'redis', url: redis.url });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store: dashStore, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
  );
  setup = { gateways: [a, b], dash, cliStore: dashStore, orgId: a.orgId };
  // Both subscribers are confirmed before any change is made.
  await until(async () => (await subscribers()) === 2 && !a.gw.deps.auth.degraded && !b.gw.deps.auth.degraded);
}, 30_000);

afterAll(async () => {
  await dash?.close();
  await dashStore?.close();
  await a?.close();
  await b?.close();
  await redis?.stop();
});

async function subscribers(): Promise<number> {
  const r = new Redis(redis.url);
  try {
    const reply = (await r.call('PUBSUB', 'NUMSUB', 'svc:invalidate')) as [string, number];
    return Number(reply[1]);
  } finally {
    r.disconnect();
  }
}

async function until(cond: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("lowering a key's RPM on the dashboard is honoured by both instances on the very next request", async () => {
  await lowerRpmBitesAtOnce(setup, 'rpm@redis-inv.test');
});

it('suspending the organization with the CLI is honoured by both instances on the very next request', async () => {
  await orgSuspensionBitesAtOnce(setup, 'org@redis-inv.test');
});

it('a lost subscriber connection is logged, the cache falls back to a short TTL, and recovers', async () => {
  const { value } = await a.addKey();
  expect((await chat(a, value)).status).toBe(200);
  expect(a.gw.deps.auth.cached).toBeGreaterThan(0);
  const killer = new Redis(redis.url);
  try {
    await killer.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
  } finally {
    killer.disconnect();
  }
  await until(() => a.logs.some((l) => l.includes('key-cache invalidation subscription lost')));
  await until(() => b.logs.some((l) => l.includes('key-cache invalidation subscription lost')));
  await until(() => a.logs.some((l) => l.includes('key-cache invalidation subscription restored')));
  await until(async () => (await subscribers()) === 2 && !a.gw.deps.auth.degraded && !b.gw.deps.auth.degraded);
  // Back to normal: changes bite at once again.
  await lowerRpmBitesAtOnce(setup, 'rpm2@redis-inv.test');
});
