/**
 * Key-cache invalidation across processes: a real gateway PROCESS (`dist/src/main.js`, key cache 60 s from
 * its config file) on a shared Redis follows an RPM change made on the dashboard API and an organization
 * suspension made with the operator CLI (both in this process) on the very next request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAdminCli } from '../../../src/dashboard/cli-commands.js';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { DEV_ORG_ID } from '../../../src/dev/bootstrap.js';
import { Logger } from '../../../src/obs/logger.js';
import { projectRoot } from '../../../src/pool/pool.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

const ORIGIN = 'https://dash.test';
let redis: RedisServer;
let store: Store;
let dash: Dashboard;
let child: ChildProcess;
let gwUrl: string;
let dir: string;

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
  dir = mkdtempSync(join(tmpdir(), 'svc-inv-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ extends: 'builtin', keyCacheTtlMs: 60_000 }));
  const [port, dashPort] = [await freePort(), await freePort()];
  gwUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [join(projectRoot(), 'dist/src/main.js')], {
    env: {
      ...process.env,
      SVC_CONFIG: config,
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
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function chat(key: string): Promise<{ status: number; code: unknown; reason: unknown }> {
  const res = await request(`${gwUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
  });
  const body = (await res.body.json()) as { error?: { code?: unknown } };
  return { status: res.statusCode, code: body.error?.code, reason: res.headers['x-svc-auth-reason'] };
}

it('a dashboard RPM change and a CLI org suspension bite on the next request of another gateway process', async () => {
  const s = dash.services;
  const owner = await s.users.createUser('owner@inv-process.test', 'long enough password');
  await s.users.setRole(DEV_ORG_ID, owner.id, 'owner');
  const cookie = `svc_session=${(await s.sessions.create(owner.id)).id}`;
  const headers = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${dash.port}`;
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
