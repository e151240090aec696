/**
 * Issue "Trust defects", item 1, on the embedded store: the dashboard and the gateway share one memory
 * store in one process, the key cache is long (60 s) and warm. A request sent right after the revoke call
 * returns is refused 401 `key_blocked` on every route (inference, count_tokens, models); a stream already
 * in flight completes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { dashboardKey, expectAllRevoked, expectAllServed } from '../../helpers/revoke-cases.js';

const ORIGIN = 'https://dash.test';
let gw: TestGateway;
let dash: Dashboard;

beforeAll(async () => {
  gw = await startTestGateway({ config: { guardrails: { mode: 'off' }, keyCacheTtlMs: 60_000 } });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store: gw.store, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
  );
});

afterAll(async () => {
  await dash?.close();
  await gw?.close();
});

it('revoke through the dashboard API bites on the next request of every route; a stream in flight completes', async () => {
  const s = dash.services;
  const owner = await s.users.createUser('owner@memory.test', 'long enough password');
  await s.users.setRole(gw.orgId, owner.id, 'owner');
  const cookie = `svc_session=${(await s.sessions.create(owner.id)).id}`;
  const k = await dashboardKey(`http://127.0.0.1:${dash.port}`, gw.orgId, cookie, ORIGIN);
  await expectAllServed(gw.url, k.value); // warms the key cache for every route

  gw.sim.configure('/', { msPerToken: 40 });
  const inflight = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${k.value}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(inflight.status).toBe(200); // headers are out: the request is in flight

  await k.revoke();
  await expectAllRevoked(gw.url, k.value);

  const text = await inflight.text();
  gw.sim.configure('/', { msPerToken: 0 });
  expect(text).toContain('data: [DONE]');
  expect(text).not.toContain('"error"');
});
