import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { startTestGateway } from '../helpers/gateway.js';
import { startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.js';
import { post } from '../helpers/refusal.js';
import { storeContractSuite } from './store.suite.js';

// Every key of an organization shares the {org:<id>} hash tag, so each Lua script touches one slot: the
// same contract suite passes on a three-master Redis Cluster.
let cluster: RedisCluster;
beforeAll(async () => void (cluster = await startRedisCluster()), 30_000);
afterAll(async () => cluster?.stop());

storeContractSuite('redis-cluster', async (opts) => {
  const store = await createStore({ kind: 'redis', url: cluster.url, ...opts });
  return { store, cleanup: () => store.close() };
});

describe('the gateway on a Redis Cluster', () => {
  it('serves, settles and revokes through the cluster', async () => {
    const t = await startTestGateway({ store: await createStore({ kind: 'redis', url: cluster.url }), config: { guardrails: { mode: 'off' } } });
    try {
      const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
      expect(res.status).toBe(200);
      await t.gw.deps.settlement.flush();
      expect(await t.store.getLedgerEntry(t.orgId, res.headers.get('x-svc-request-id')!)).not.toBeNull();
      await t.store.updateKey(t.orgId, t.keyRecord.id, { status: 'revoked' });
      expect((await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
