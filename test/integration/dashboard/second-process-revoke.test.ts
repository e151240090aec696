/**
 * Issue 5, literally: a key revoked through the dashboard API is refused (401, x-svc-auth-reason) by the next
 * inference request on a second gateway PROCESS (the real `dist/src/main.js`) sharing the same Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { DEV_ORG_ID } from '../../../src/dev/bootstrap.js';
import { Logger } from '../../../src/obs/logger.js';
import { projectRoot } from '../../../src/pool/pool.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { expectAllRevoked, expectAllServed } from '../../helpers/revoke-cases.js';

const ORIGIN = 'https://dash.test';
let redis: RedisServer;
let store: Store;
let dash: Dashboard;
let child: ChildProcess;
let gwUrl: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  redis = await startRedisServer();
  const [port, dashPort] = [await freePort(), await freePort()];
  gwUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [join(projectRoot(), 'dist/src/main.js')], {
    env: {
      ...process.env,
      SVC_REDIS_URL: redis.url,
      SVC_PORT: String(port),
      SVC_DASHBOARD_PORT: String(dashPort),
      SVC_HOST: '127.0.0.1',
      SVC_GUARDRAILS_MODE: 'off',
      SVC_DEV_BOOTSTRAP: 'true',
      SVC_LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 100; i++) {
    try {
      if ((await request(`${gwUrl}/healthz`)).statusCode === 200) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (i === 99) throw new Error(`gateway process did not start:\n${stderr}`);
  }
  store = await createStore({ kind: 'redis', url: redis.url });
  dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
  );
}, 30_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await dash?.close();
  await store?.close();
  await redis?.stop();
});

async function chat(key: string): Promise<{ status: number; reason: unknown }> {
  const res = await request(`${gwUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
  });
  await res.body.text();
  return { status: res.statusCode, reason: res.headers['x-svc-auth-reason'] };
}

it('revoke through the dashboard API bites on the next request of another gateway process', async () => {
  const s = dash.services;
  const owner = await s.users.createUser('owner@process.test', 'long enough password');
  await s.users.setRole(DEV_ORG_ID, owner.id, 'owner'); // the org the process seeded in Redis
  const cookie = `svc_session=${(await s.sessions.create(owner.id)).id}`;
  const base = `http://127.0.0.1:${dash.port}`;
  const created = await request(`${base}/api/keys?orgId=${DEV_ORG_ID}`, {
    method: 'POST',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cross-process' }),
  });
  expect(created.statusCode).toBe(201);
  const { key, value } = (await created.body.json()) as { key: { id: string }; value: string };
  expect(await chat(value)).toEqual({ status: 200, reason: undefined });
  await expectAllServed(gwUrl, value); // the process's key cache holds the active record for every route
  const revoked = await request(`${base}/api/keys/${key.id}?orgId=${DEV_ORG_ID}`, { method: 'DELETE', headers: { cookie, origin: ORIGIN } });
  expect(revoked.statusCode).toBe(200);
  await revoked.body.text();
  expect(await chat(value)).toEqual({ status: 401, reason: 'key_blocked' });
  await expectAllRevoked(gwUrl, value); // count_tokens and the models routes too
});
