/**
 * Redis store failure behaviour: fail closed and bounded (StoreUnavailableError within the command timeout,
 * ping never hangs) and recover without a restart, both when the server stalls and when it dies and returns.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError, type Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { orgWithKey, uid } from './store-fixtures.js';

const run = promisify(execFile);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves with the rejection and how long it took; fails the test if the call succeeds. */
async function failure(call: Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    await call;
  } catch (err) {
    return { err, ms: performance.now() - t0 };
  }
  throw new Error('expected the call to fail');
}

async function eventually<T>(call: () => Promise<T>, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(50);
    }
  }
}

describe('RedisStore when Redis stalls or dies', () => {
  let server: RedisServer;
  let store: Store;
  beforeAll(async () => {
    server = await startRedisServer();
    store = await createStore({ kind: 'redis', url: server.url, commandTimeoutMs: 500 });
  });
  afterAll(async () => {
    await store.close();
    await server.stop();
  });

  it('throws StoreUnavailableError within the timeout while Redis is paused, then works again', async () => {
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 10_000, 'seed');
    await run('redis-cli', ['-p', String(server.port), 'CLIENT', 'PAUSE', '2500', 'ALL']);
    const calls = await Promise.all([
      failure(store.getBalance(orgId)),
      failure(store.hold({ orgId, requestId: uid('r'), amount: 1, now: Date.now(), ttlMs: 10_000, budgets: [] })),
      failure(store.admit({ orgId, keyId: key.id, requestId: uid('r'), now: Date.now(), tokens: 1, scopes: [], leaseTtlMs: 1_000 })),
      failure(store.getKeyByHash(key.hash)),
    ]);
    for (const { err, ms } of calls) {
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(ms).toBeLessThan(1_500);
    }
    const t0 = performance.now();
    expect(await store.ping(200)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(400);

    // The pause ends; the same store instance answers again (the timed-out hold may have landed: it is idempotent
    // per request id and expires with its TTL, so only the balance is checked exactly).
    const balance = await eventually(() => store.getBalance(orgId), 5_000);
    expect(balance.balance).toBe(10_000);
    expect(await store.ping(500)).toBe(true);
    expect((await store.topUp(orgId, 5, 'after-pause')).balance).toBe(10_005);
  });

  it('fails fast while Redis is down and recovers (scripts reloaded) when it comes back', async () => {
    const { orgId } = await orgWithKey(store);
    await server.kill();
    const down = await failure(store.topUp(orgId, 1, 'while-down'));
    expect(down.err).toBeInstanceOf(StoreUnavailableError);
    expect(down.ms).toBeLessThan(1_500);
    expect(await store.ping(200)).toBe(false);

    await server.restart(); // empty dataset, empty script cache: EVALSHA must fall back to EVAL
    const view = await eventually(() => store.topUp(orgId, 42, 'after-restart'), 5_000);
    expect(view).toEqual({ balance: 42, held: 0 });
    const held = await store.hold({ orgId, requestId: uid('r'), amount: 40, now: Date.now(), ttlMs: 10_000, budgets: [] });
    expect(held).toEqual({ ok: true, available: 2 });
    expect(await store.ping(500)).toBe(true);
  });

  it('rejects createStore with StoreUnavailableError when nothing listens', async () => {
    const t0 = performance.now();
    await expect(
      createStore({ kind: 'redis', url: 'redis://127.0.0.1:1', commandTimeoutMs: 300, connectTimeoutMs: 800 }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});
