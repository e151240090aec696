import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { post } from '../helpers/refusal.js';

const run = promisify(execFile);
const CHAT = '/v1/chat/completions';
const ok = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 };

describe('two gateway nodes sharing one Redis', () => {
  let redis: RedisServer;
  let a: TestGateway;
  let b: TestGateway;
  let storeB: Store;
  beforeAll(async () => {
    redis = await startRedisServer();
    const storeA = await createStore({ kind: 'redis', url: redis.url, commandTimeoutMs: 400 });
    storeB = await createStore({ kind: 'redis', url: redis.url, commandTimeoutMs: 400 });
    a = await startTestGateway({ store: storeA, config: { guardrails: { mode: 'off' } } });
    // Node B caches key records for a minute: revocation must still bite through the admission re-check.
    b = await startTestGateway({ store: storeB, config: { guardrails: { mode: 'off' }, keyCacheTtlMs: 60_000 } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('a key revoked through node A is refused by the very next request on node B', async () => {
    const k = await a.addKey();
    const auth = { authorization: `Bearer ${k.value}` };
    expect((await post(b, CHAT, ok, auth)).status).toBe(200); // B now has the record cached
    await a.store.updateKey(a.orgId, k.record.id, { status: 'revoked' });
    const res = await post(b, CHAT, ok, auth);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-svc-auth-reason')).toBe('key_blocked');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('credit is shared: holds and settlement on both nodes reconcile exactly', async () => {
    await a.gw.deps.settlement.flush(); // earlier tests' requests settle first
    await b.gw.deps.settlement.flush();
    const before = await a.store.getBalance(a.orgId);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 ? a : b, CHAT, ok, { authorization: `Bearer ${a.key}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const costs = results.map((r) => Math.round(Number(r.headers.get('x-svc-request-cost')) * 1e9));
    await a.gw.deps.settlement.flush();
    await b.gw.deps.settlement.flush();
    const after = await a.store.getBalance(a.orgId);
    expect(after.held).toBe(0);
    expect(before.balance - after.balance).toBe(costs.reduce((s, c) => s + c, 0));
  });

  it('fails closed within a bounded time while Redis is paused, and recovers when it returns', async () => {
    // CLIENT PAUSE returns at once and then blocks every client's commands for 2.5 s.
    await run('redis-cli', ['-p', String(redis.port), 'CLIENT', 'PAUSE', '2500', 'ALL']);
    const resumeAt = Date.now() + 2500;
    const upstreamBefore = a.sim.stats().requests;
    const started = Date.now();
    const res = await post(a, CHAT, ok);
    const elapsed = Date.now() - started;
    expect([503]).toContain(res.status);
    const code = ((await res.json()) as { error: { code: string } }).error.code;
    expect(['service_unavailable', 'credit_check_failed']).toContain(code);
    expect(elapsed).toBeLessThan(2000);
    expect(a.sim.stats().requests).toBe(upstreamBefore); // never an unmetered call
    await new Promise((r) => setTimeout(r, Math.max(0, resumeAt - Date.now())));
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await post(a, CHAT, ok)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
