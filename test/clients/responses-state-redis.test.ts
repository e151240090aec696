/**
 * Responses state through the Store's KV on Redis: an answer stored by one gateway node is continued on
 * another (previous_response_id, item_reference), and expires with its TTL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { ResponsesStore } from '../../src/responses-store/responses-store.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import type { Store } from '../../src/store/contract.js';
import { MODELS } from './helpers.js';

describe('responses state on the Redis store, across two nodes', () => {
  let redis: RedisServer;
  let a: TestGateway;
  let b: TestGateway;
  let extra: Store;
  beforeAll(async () => {
    redis = await startRedisServer();
    a = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config: { guardrails: { mode: 'monitor' } } });
    b = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url }), config: { guardrails: { mode: 'monitor' } } });
    extra = await createStore({ kind: 'redis', url: redis.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await extra?.close();
    await redis?.stop();
  });

  const create = (t: TestGateway, body: Record<string, unknown>) =>
    fetch(`${t.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${a.key}` }, body: JSON.stringify(body) });

  it('a response stored on node A is continued and referenced on node B', async () => {
    const r1 = (await (await create(a, { model: MODELS.openai, input: 'Tell me about Oslo' })).json()) as { id: string; output: { id: string; content: { text: string }[] }[] };
    const byId = await create(b, { model: MODELS.openai, previous_response_id: r1.id, input: 'And Bergen?' });
    expect(byId.status, await byId.clone().text()).toBe(200);
    const sent = JSON.stringify(Object.values(b.sim.stats().endpoints).map((e) => e.lastBody));
    expect(sent).toContain('Tell me about Oslo');
    expect(sent).toContain(r1.output[0]!.content[0]!.text.slice(0, 20));
    const byRef = await create(b, { model: MODELS.openai, input: [{ type: 'item_reference', id: r1.output[0]!.id }, { role: 'user', content: 'More' }] });
    expect(byRef.status).toBe(200);
  });

  it('entries expire with their TTL (Redis PX)', async () => {
    const store = new ResponsesStore(extra, 1000);
    store.save('org-x', [{ role: 'user', content: 'hi' }], { id: 'resp_ttl', output: [] }, (e) => {
      throw e;
    });
    const body: Record<string, unknown> = { previous_response_id: 'resp_ttl', input: 'x' };
    await store.expand('org-x', body);
    expect(body.input).toEqual([{ role: 'user', content: 'hi' }, { role: 'user', content: 'x' }]);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(store.expand('org-x', { previous_response_id: 'resp_ttl', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});
