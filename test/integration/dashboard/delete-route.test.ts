/**
 * Regression: the dashboard has DELETE routes (webhooks, channels, keys, members), so it must start and
 * answer a DELETE through src/server/app.ts (uWS names the method `del`, not `delete`).
 */
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import { createStore } from '../../../src/store/index.js';

let dash: Dashboard | undefined;

afterAll(async () => {
  await dash?.close();
});

it('starts with DELETE routes and answers a DELETE', async () => {
  const store = await createStore({ kind: 'memory', snapshotPath: null });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: 'https://dash.test', secureCookies: true },
  );
  const res = await request(`http://127.0.0.1:${dash.port}/api/webhooks?orgId=x&id=y`, { method: 'DELETE', headers: { origin: 'https://dash.test' } });
  expect(res.statusCode).toBe(401);
  expect(await res.body.json()).toEqual({
    error: { message: 'Sign in: no valid dashboard session (missing or expired).', type: 'authentication_error', code: 'session_required' },
  });
});
