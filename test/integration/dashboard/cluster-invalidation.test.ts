/**
 * Key-cache invalidation on a three-master Redis Cluster: plain PUBLISH is broadcast cluster-wide, so two
 * gateway instances subscribed through (possibly) different nodes both follow a dashboard RPM change and a
 * CLI organization suspension (60 s key caches). The relay between masters is asynchronous: checked after a
 * 1 s wait, not on the request right after the PUBLISH answered.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { LONG_KEY_CACHE_TTL_MS, lowerRpmBitesAtOnce, orgSuspensionBitesAtOnce, ORIGIN, type Setup } from '../../helpers/invalidation-cases.js';
import { startRedisCluster, type RedisCluster } from '../../helpers/redis-cluster.js';

let cluster: RedisCluster;
let dashStore: Store;
let dash: Dashboard;
let a: TestGateway;
let b: TestGateway;
let setup: Setup;

beforeAll(async () => {
  cluster = await startRedisCluster();
  const config = { guardrails: { mode: 'off' }, keyCacheTtlMs: LONG_KEY_CACHE_TTL_MS };
  a = await startTestGateway({ store: await createStore({ kind: 'redis', url: cluster.url }), config });
  b = await startTestGateway({ store: await createStore({ kind: 'redis', url: cluster.url }), config });
  dashStore = await createStore({ kind: 'redis', url: cluster.url });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store: dashStore, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
  );
  // PUBLISH answers before the other masters relay it over the cluster bus (asynchronous): a short wait.
  setup = { gateways: [a, b], dash, cliStore: dashStore, orgId: a.orgId, propagation: () => new Promise((r) => setTimeout(r, 1000)) };
  const end = Date.now() + 10_000;
  while (a.gw.deps.auth.degraded || b.gw.deps.auth.degraded) {
    if (Date.now() > end) throw new Error('subscriptions not confirmed');
    await new Promise((r) => setTimeout(r, 20));
  }
}, 60_000);

afterAll(async () => {
  await dash?.close();
  await dashStore?.close();
  await a?.close();
  await b?.close();
  await cluster?.stop();
});

it('subscriptions are confirmed on both instances', () => {
  expect([a.gw.deps.auth.degraded, b.gw.deps.auth.degraded]).toEqual([false, false]);
});

it("lowering a key's RPM on the dashboard is honoured by both instances after the cluster-bus relay (200 ms)", async () => {
  await lowerRpmBitesAtOnce(setup, 'rpm@cluster-inv.test');
});

it('suspending the organization with the CLI is honoured by both instances after the cluster-bus relay (200 ms)', async () => {
  await orgSuspensionBitesAtOnce(setup, 'org@cluster-inv.test');
});
