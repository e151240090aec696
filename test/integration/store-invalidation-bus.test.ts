/**
 * The Redis invalidation bus on its own: messages reach every subscriber, malformed ones are dropped, and a
 * subscriber connection that stops answering (server paused: no FIN, no close) is declared lost by the
 * heartbeat and comes back by itself.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INVALIDATION_CHANNEL, RedisInvalidationBus, type Invalidation } from '../../src/store/invalidation.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.url);
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function recorder() {
  const r = { msgs: [] as Invalidation[], links: [] as boolean[] };
  return { r, listener: { onInvalidate: (m: Invalidation) => r.msgs.push(m), onLink: (up: boolean) => r.links.push(up) } };
}

it('delivers to every subscriber and drops malformed messages', async () => {
  const bus = new RedisInvalidationBus(client);
  const [x, y] = [recorder(), recorder()];
  const stops = [bus.subscribe(x.listener), bus.subscribe(y.listener)];
  await until(() => x.r.links.at(-1) === true && y.r.links.at(-1) === true);
  await client.publish(INVALIDATION_CHANNEL, 'not json');
  await client.publish(INVALIDATION_CHANNEL, JSON.stringify({ kind: 'all' }));
  expect(await bus.publish({ kind: 'org', orgId: 'o1' })).toBe(true);
  await until(() => x.r.msgs.length === 1 && y.r.msgs.length === 1);
  expect(x.r.msgs).toEqual([{ kind: 'org', orgId: 'o1' }]);
  expect(y.r.msgs).toEqual([{ kind: 'org', orgId: 'o1' }]);
  for (const stop of stops) await stop();
});

it('a subscriber that stops answering is declared lost by the heartbeat and recovers', async () => {
  const bus = new RedisInvalidationBus(client, { everyMs: 100, timeoutMs: 200 });
  const x = recorder();
  const stop = bus.subscribe(x.listener);
  await until(() => x.r.links.at(-1) === true);
  const admin = new Redis(redis.url);
  try {
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
  } finally {
    admin.disconnect();
  }
  await until(() => x.r.links.at(-1) === false, 1_500);
  await until(() => x.r.links.at(-1) === true, 5_000);
  expect(x.r.links).toEqual([true, false, true]);
  expect(await bus.publish({ kind: 'key', hash: 'b'.repeat(64) })).toBe(true);
  await until(() => x.r.msgs.length === 1);
  await stop();
});
