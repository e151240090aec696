/**
 * Sustained-load issue, item 4: Store round trips per request on the Redis hot path, counted with MONITOR
 * on this test's own redis-server. With a warm key cache (key, org and team cached together), a priced
 * chat request costs one round trip before the upstream call (lua/admit-hold.lua: admission and the credit
 * hold together); settlement is one script per batch, after the answer. A refusal after the hold is
 * answered, then its hold and leases are released.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadScripts } from '../../src/store/redis/scripts.js';
import { createStore } from '../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post } from '../helpers/refusal.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let t: TestGateway;
let monitor: Redis;
const names = new Map(Object.values(loadScripts()).map((s) => [s.sha, s.name]));
let seen: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const store = await createStore({ kind: 'redis', url: redis.url });
  t = await startTestGateway({ store, config: { guardrails: { mode: 'off' }, keyCacheTtlMs: 60_000, health: { syncMs: 60_000 } } });
  monitor = await new Redis(redis.url).monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return; // commands a script runs are part of its one round trip
    const cmd = args[0]!.toLowerCase();
    seen.push(cmd === 'evalsha' ? `evalsha ${names.get(args[1]!) ?? args[1]}` : cmd);
  });
});

afterAll(async () => {
  monitor?.disconnect();
  await t?.close();
  await redis?.stop();
});

const ASK = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

it('a served request: one round trip (admission + hold) before the upstream, one settle script after', async () => {
  await t.store.createTeam({ id: 'team-rt', orgId: t.orgId, name: 'rt', rpm: 100, tpm: null, budget: 1_000_000_000, createdAt: Date.now() });
  const k = await t.addKey({ teamId: 'team-rt', maxConcurrency: 4 });
  const auth = { authorization: `Bearer ${k.value}` };
  expect((await post(t, '/v1/chat/completions', ASK, auth)).status).toBe(200); // warms the key cache
  await t.gw.deps.settlement.flush();
  await settle();

  seen = [];
  const res = await post(t, '/v1/chat/completions', ASK, auth);
  await res.text();
  await t.gw.deps.settlement.flush();
  // MONITOR reports on its own connection, in execution order but with a delay of its own: wait for both
  // scripts, then check the whole sequence (admission + hold first, the settle script after the answer).
  await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
  await settle();
  console.log(`redis commands for one served request: [${seen.join(', ')}]`);
  expect(res.status).toBe(200);
  expect(seen).toEqual(['evalsha admit-hold', 'evalsha settle']);
});

it('an unmetered request (models) is one admission script; no lease to release without a concurrency ceiling', async () => {
  const k = await t.addKey();
  const auth = { authorization: `Bearer ${k.value}` };
  expect((await fetch(`${t.url}/v1/models`, { headers: auth })).status).toBe(200);
  await settle();
  seen = [];
  const res = await fetch(`${t.url}/v1/models`, { headers: auth });
  await res.text();
  await settle();
  expect(res.status).toBe(200);
  expect(seen).toEqual(['evalsha admit']);
});

it('refusals: over the limit is the one round trip; a refusal after the hold releases it and the lease', async () => {
  const limited = await t.addKey({ rpm: 1, maxConcurrency: 2 });
  const auth = { authorization: `Bearer ${limited.value}` };
  expect((await post(t, '/v1/chat/completions', ASK, auth)).status).toBe(200);
  await t.gw.deps.settlement.flush();
  await settle();
  seen = [];
  const refused = await post(t, '/v1/chat/completions', ASK, auth);
  await refused.text();
  await settle();
  expect(refused.status).toBe(429);
  expect(seen).toEqual(['evalsha admit-hold']);

  const k = await t.addKey({ maxConcurrency: 2 });
  const big = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(155_000) }], max_tokens: 5 };
  const warm = await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${k.value}` } });
  await warm.text();
  await settle();
  seen = [];
  const tooLarge = await post(t, '/v1/chat/completions', big, { authorization: `Bearer ${k.value}` });
  await tooLarge.text();
  await settle();
  expect(tooLarge.status).toBe(400);
  expect(seen).toEqual(['evalsha admit-hold', 'evalsha release-hold', 'evalsha release-leases']);
  expect((await t.store.getBalance(t.orgId)).held).toBe(0);
});

it('near the balance: the admit-hold round trip admits, the hold stage finishes (exact count, clamped cap)', async () => {
  await t.addOrg('org-rt-small', 0);
  await t.store.topUp('org-rt-small', 2_000_000, 'seed-rt-small'); // $0.002
  const k = await t.addKey({ orgId: 'org-rt-small' });
  const auth = { authorization: `Bearer ${k.value}` };
  const warm = await fetch(`${t.url}/v1/models`, { headers: auth });
  await warm.text();
  await settle();
  seen = [];
  const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, auth);
  await res.text();
  expect(res.status).toBe(200);
  expect(Number(res.headers.get('x-svc-max-tokens-clamped'))).toBeGreaterThan(16);
  await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3); // MONITOR lags on its own connection
  expect(seen.slice(0, 3)).toEqual(['evalsha admit-hold', 'evalsha hold', 'evalsha hold']);
  await t.gw.deps.settlement.flush();
  const b = await t.store.getBalance('org-rt-small');
  expect(b.held).toBe(0);
  expect(b.balance).toBeGreaterThanOrEqual(0);
});
