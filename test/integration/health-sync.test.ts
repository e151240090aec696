import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../src/config/schema.js';
import { createStore } from '../../src/store/index.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { post } from '../helpers/refusal.js';

const ask = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }], max_tokens: 3 };

describe('circuit breakers are shared between nodes through the Store', () => {
  let redis: RedisServer;
  let upstream: Simulator;
  let a: TestGateway;
  let b: TestGateway;
  const shared = (c: GatewayConfig): void => {
    const m = c.models.find((x) => x.id === 'gpt-4.1')!;
    const ep = m.endpoints[0]!;
    m.endpoints = ['/hs-a', '/hs-b'].map((p) => ({ ...ep, provider: 'openai', apiKeyEnv: null, baseUrl: `${upstream.url}${p}/v1` }));
  };
  beforeAll(async () => {
    redis = await startRedisServer();
    upstream = await startSimulator({});
    const config = { guardrails: { mode: 'off' }, health: { failureThreshold: 2, cooldownMs: 30_000, syncMs: 60_000 } };
    a = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config, patch: shared });
    b = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config, patch: shared });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await upstream?.close();
    await redis?.stop();
  });

  it('a breaker opened on node A keeps node B away from the endpoint after one sync', async () => {
    upstream.configure('/hs-a', { fault: '503' });
    for (let i = 0; i < 2; i++) expect((await post(a, '/v1/chat/completions', ask)).status).toBe(200); // failed over to /hs-b
    const hitsA = upstream.stats().endpoints['/hs-a']!.requests;
    expect(hitsA).toBe(2);
    await a.gw.healthSync.tick(); // publish
    await b.gw.healthSync.tick(); // adopt
    const res = await post(b, '/v1/chat/completions', ask);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-attempts')).toBe('1');
    expect(upstream.stats().endpoints['/hs-a']!.requests).toBe(hitsA); // B never tried the broken endpoint
  });
});
