/**
 * Key-cache invalidation on the embedded store: two gateway instances in one process share one store (60 s
 * key caches); the dashboard and the operator CLI on the same store invalidate in-process. Key and
 * organization changes bite on the very next request of both instances.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { LONG_KEY_CACHE_TTL_MS, lowerRpmBitesAtOnce, orgSuspensionBitesAtOnce, ORIGIN, type Setup } from '../../helpers/invalidation-cases.js';

let dash: Dashboard;
let a: TestGateway;
let b: TestGateway;
let setup: Setup;

beforeAll(async () => {
  const config = { guardrails: { mode: 'off' }, keyCacheTtlMs: LONG_KEY_CACHE_TTL_MS };
  a = await startTestGateway({ config });
  b = await startTestGateway({ config, store: a.store });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store: a.store, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
  );
  setup = { gateways: [a, b], dash, cliStore: a.store, orgId: a.orgId };
});

afterAll(async () => {
  await dash?.close();
  // b shares a's store: a closes it.
  await b?.gw.close();
  await b?.sim.close();
  await a?.close();
});

it("lowering a key's RPM on the dashboard is honoured by both instances on the very next request", async () => {
  await lowerRpmBitesAtOnce(setup, 'rpm@memory-inv.test');
});

it('suspending the organization with the CLI is honoured by both instances on the very next request', async () => {
  await orgSuspensionBitesAtOnce(setup, 'org@memory-inv.test');
});
