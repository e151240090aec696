/**
 * Issue 5, literally: a key revoked through the dashboard API is refused (401, x-svc-auth-reason) by the next
 * inference request on a second gateway PROCESS (the real `dist/src/main.js`) sharing the same Redis.
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEV_ORG_ID } from '../../../src/dev/bootstrap.js';
import { expectAllRevoked, expectAllServed } from '../../helpers/revoke-cases.js';
import { DASHBOARD_ORIGIN as ORIGIN, startSecondProcess, type SecondProcess } from '../../helpers/second-process.js';

let p: SecondProcess;
beforeAll(async () => {
  p = await startSecondProcess();
}, 30_000);
afterAll(async () => p?.close());

it('revoke through the dashboard API bites on the next request of another gateway process', async () => {
  const cookie = await p.ownerCookie('owner@process.test');
  const base = `http://127.0.0.1:${p.dash.port}`;
  const gwUrl = p.gw.url;
  const created = await request(`${base}/api/keys?orgId=${DEV_ORG_ID}`, {
    method: 'POST',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cross-process' }),
  });
  expect(created.statusCode).toBe(201);
  const { key, value } = (await created.body.json()) as { key: { id: string }; value: string };
  expect(await p.chat(value)).toEqual({ status: 200, code: undefined, reason: undefined });
  await expectAllServed(gwUrl, value); // the process's key cache holds the active record for every route
  const revoked = await request(`${base}/api/keys/${key.id}?orgId=${DEV_ORG_ID}`, { method: 'DELETE', headers: { cookie, origin: ORIGIN } });
  expect(revoked.statusCode).toBe(200);
  await revoked.body.text();
  expect(await p.chat(value)).toMatchObject({ status: 401, reason: 'key_blocked' });
  await expectAllRevoked(gwUrl, value); // count_tokens and the models routes too
});
