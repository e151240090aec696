/**
 * A real gateway PROCESS (`dist/src/main.js`, dev bootstrap on, guardrails off) on a private Redis, and a
 * dashboard in this test process on the same Redis: for changes made here that another process must follow.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startDashboard, type Dashboard } from '../../src/dashboard/index.js';
import { DEV_ORG_ID } from '../../src/dev/bootstrap.js';
import { Logger } from '../../src/obs/logger.js';
import type { Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

export const DASHBOARD_ORIGIN = 'https://dash.test';

export interface SecondProcess {
  redis: RedisServer;
  /** This process's store on the shared Redis. */
  store: Store;
  dash: Dashboard;
  gw: GatewayProcess;
  /** One small chat request to the gateway process with `key`. */
  chat(key: string): Promise<{ status: number; code: unknown; reason: unknown }>;
  /** A dashboard session cookie of a new Owner of the org the process seeded (`email` must be unique). */
  ownerCookie(email: string): Promise<string>;
  close(): Promise<void>;
}

/** `config`, when given, is the process's SVC_CONFIG file. */
export async function startSecondProcess(config?: Record<string, unknown>): Promise<SecondProcess> {
  const redis = await startRedisServer();
  // Its own data directory (settlement journal, lock), so test files running side by side never share one.
  const dir = mkdtempSync(join(tmpdir(), 'svc-second-'));
  const env: Record<string, string> = { SVC_REDIS_URL: redis.url, SVC_DEV_BOOTSTRAP: 'true', SVC_DATA_DIR: dir };
  if (config) {
    env.SVC_CONFIG = join(dir, 'config.json');
    writeFileSync(env.SVC_CONFIG, JSON.stringify(config));
  }
  const gw = await startGatewayProcess(env);
  const store = await createStore({ kind: 'redis', url: redis.url });
  const dash = await startDashboard(
    { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store, logger: new Logger('error', true, () => undefined) },
    { host: '127.0.0.1', port: 0, origin: DASHBOARD_ORIGIN, secureCookies: true },
  );
  return {
    redis,
    store,
    dash,
    gw,
    async chat(key) {
      const res = await request(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
      });
      const body = (await res.body.json()) as { error?: { code?: unknown } };
      return { status: res.statusCode, code: body.error?.code, reason: res.headers['x-svc-auth-reason'] };
    },
    async ownerCookie(email) {
      const s = dash.services;
      const owner = await s.users.createUser(email, 'long enough password');
      await s.users.setRole(DEV_ORG_ID, owner.id, 'owner'); // the org the process seeded in Redis
      return `svc_session=${(await s.sessions.create(owner.id)).id}`;
    },
    async close() {
      await stopGatewayProcess(gw);
      await dash.close();
      await store.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
