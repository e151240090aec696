/**
 * Key-cache invalidation across processes: a real gateway PROCESS (`dist/src/main.js`, key cache 60 s from
 * its config file) on a shared Redis follows an RPM change made on the dashboard API and an organization
 * suspension made with the operator CLI (both in this process) on the very next request.
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAdminCli } from '../../../src/dashboard/cli-commands.js';
import { DEV_ORG_ID } from '../../../src/dev/bootstrap.js';
import { DASHBOARD_ORIGIN as ORIGIN, startSecondProcess, type SecondProcess } from '../../helpers/second-process.js';

let p: SecondProcess;
beforeAll(async () => {
  p = await startSecondProcess({ extends: 'builtin', keyCacheTtlMs: 60_000 });
}, 30_000);
afterAll(async () => p?.close());

it('a dashboard RPM change and a CLI org suspension bite on the next request of another gateway process', async () => {
  const cookie = await p.ownerCookie('owner@inv-process.test');
  const headers = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${p.dash.port}`;
  const { chat, store } = p;
  const created = await request(`${base}/api/keys?orgId=${DEV_ORG_ID}`, { method: 'POST', headers, body: JSON.stringify({ name: 'inv', rpm: 100 }) });
  expect(created.statusCode).toBe(201);
  const { key, value } = (await created.body.json()) as { key: { id: string }; value: string };
  const served = { status: 200, code: undefined, reason: undefined };
  expect(await chat(value)).toEqual(served);
  expect(await chat(value)).toEqual(served);

  // Control: a change written straight to the Store (nothing published) stays invisible to the warm cache.
  await store.updateOrg(DEV_ORG_ID, { status: 'suspended' });
  expect(await chat(value)).toEqual(served);
  await store.updateOrg(DEV_ORG_ID, { status: 'active' });

  const patched = await request(`${base}/api/keys/${key.id}?orgId=${DEV_ORG_ID}`, { method: 'PATCH', headers, body: JSON.stringify({ rpm: 3 }) });
  expect(patched.statusCode).toBe(200);
  await patched.body.text();
  expect(await chat(value)).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });

  expect(await runAdminCli(['org', 'suspend', '--org', DEV_ORG_ID], store, () => undefined)).toBe(0);
  expect(await chat(value)).toEqual({ status: 401, code: 'invalid_api_key', reason: 'key_blocked' });
  expect(await runAdminCli(['org', 'resume', '--org', DEV_ORG_ID], store, () => undefined)).toBe(0);
  // Still over the lowered RPM (3 in the window): admitted no further, but no longer blocked.
  expect(await chat(value)).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
});
