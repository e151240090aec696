import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdToNano } from '../../src/billing/money.js';
import { createStore } from '../../src/store/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { post } from '../helpers/refusal.js';

describe('Redis with AOF (appendfsync always): acknowledged money survives a crash', () => {
  let redis: RedisServer;
  let t: TestGateway;
  beforeAll(async () => {
    redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
    t = await startTestGateway({ store: await createStore({ kind: 'redis', url: redis.url, commandTimeoutMs: 500 }), config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('keeps top-ups, keys, settled spend and the ledger across a SIGKILL and restart', async () => {
    await t.store.topUp(t.orgId, usdToNano(7), 'durable-topup');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `n${i}` }], max_tokens: 3 });
      expect(res.status).toBe(200);
      ids.push(res.headers.get('x-svc-request-id')!);
    }
    await t.gw.deps.settlement.flush();
    const before = await t.store.getBalance(t.orgId);
    await redis.restart(); // SIGKILL: no shutdown work, only what AOF already holds
    let after = null;
    for (let i = 0; i < 40 && !after; i++) {
      after = await t.store.getBalance(t.orgId).catch(() => null);
      if (!after) await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toEqual(before);
    for (const id of ids) expect(await t.store.getLedgerEntry(t.orgId, id)).not.toBeNull();
    expect((await t.store.getKey(t.orgId, t.keyRecord.id))?.hash).toBe(t.keyRecord.hash);
    // The repeated top-up is still recognised: idempotency state survived too.
    expect(await t.store.topUp(t.orgId, usdToNano(7), 'durable-topup')).toEqual(before);
    const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after' }], max_tokens: 3 });
    expect(res.status).toBe(200);
  });
});
