/**
 * RedisStore.admitAndHold (lua/admit-hold.lua): the same answers as `admit` then `hold`, in one round trip.
 * An admission refusal records nothing; an admitted request whose hold does not fit stays admitted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdmitRequest, LimitScope, Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';
import { keyRecord, newKeyValue } from '../../src/keys/mint.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let store: Store;
const orgId = 'org-ah';
let keyId = '';

beforeAll(async () => {
  server = await startRedisServer();
  store = await createStore({ kind: 'redis', url: server.url });
  await store.createOrg({ id: orgId, name: 'o', status: 'active', createdAt: 0, fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
  await store.topUp(orgId, 1_000, 'seed');
  const key = keyRecord(orgId, 'k', newKeyValue('sk-svc-'));
  await store.createKey(key);
  keyId = key.id;
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const scopes = (rpm: number | null): LimitScope[] => [{ source: 'key', id: keyId, rpm, tpm: null, maxConcurrency: 1 }];
const req = (requestId: string, rpm: number | null): AdmitRequest => ({ orgId, keyId, requestId, now: Date.now(), tokens: 10, scopes: scopes(rpm), leaseTtlMs: 60_000 });

it('admits and holds together; the hold is released like any other', async () => {
  const r = await store.admitAndHold!(req('r1', 10), { amount: 400, ttlMs: 60_000, budgets: [] });
  expect(r).toEqual({ admit: { ok: true }, hold: { ok: true, available: 600 } });
  expect(await store.getBalance(orgId)).toEqual({ balance: 1_000, held: 400 });
  await store.releaseHold(orgId, 'r1');
  await store.releaseLeases(orgId, 'r1', scopes(10));
});

it('an admitted request whose hold does not fit stays admitted (lease and window taken), nothing held', async () => {
  const r = await store.admitAndHold!(req('r2', 10), { amount: 5_000, ttlMs: 60_000, budgets: [] });
  expect(r).toEqual({ admit: { ok: true }, hold: { ok: false, source: 'plan', available: 1_000 } });
  expect((await store.getBalance(orgId)).held).toBe(0);
  const second = await store.admit(req('r3', 10));
  expect(second).toMatchObject({ ok: false, kind: 'concurrency', source: 'key' }); // r2's lease is held
  await store.releaseLeases(orgId, 'r2', scopes(10));
});

it('a budget that cannot take the hold answers source budget', async () => {
  const r = await store.admitAndHold!(req('r4', 10), { amount: 100, ttlMs: 60_000, budgets: [{ source: 'key', id: keyId, limit: 50 }] });
  expect(r).toEqual({ admit: { ok: true }, hold: { ok: false, source: 'budget', available: 1_000 } });
  await store.releaseLeases(orgId, 'r4', scopes(10));
});

it('an admission refusal records nothing and carries no hold', async () => {
  const r = await store.admitAndHold!(req('r5', 3), { amount: 100, ttlMs: 60_000, budgets: [] }); // r1, r2, r4 fill the window
  expect(r).toMatchObject({ admit: { ok: false, kind: 'rpm', source: 'key' }, hold: null });
  expect((await store.getBalance(orgId)).held).toBe(0);
  await store.updateKey(orgId, keyId, { status: 'revoked' });
  expect(await store.admitAndHold!(req('r6', null), { amount: 100, ttlMs: 60_000, budgets: [] })).toEqual({
    admit: { ok: false, kind: 'key_status', status: 'revoked' },
    hold: null,
  });
  expect((await store.getBalance(orgId)).held).toBe(0);
});
