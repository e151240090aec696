import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createdData, KeyEventEmitter, revokedData, rotatedData } from '../../../src/dashboard/key-events.js';
import { WebhooksService } from '../../../src/dashboard/webhooks-service.js';
import type { GuardedRequestInit, GuardedResult } from '../../../src/events/ssrf-guard.js';
import { keyRecord } from '../../../src/keys/mint.js';
import { Logger } from '../../../src/obs/logger.js';
import { StoreUnavailableError, type Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';

const ORG = 'org-1';

/** A guard stand-in: public DNS for every name; requests are recorded and answered after `delayMs`. */
class FakeGuard {
  requests: { url: string; body: string }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly delayMs = 0) {}
  resolveAndCheck(url: URL): Promise<{ ok: true; hostname: string; address: string; family: 4 }> {
    return Promise.resolve({ ok: true, hostname: url.hostname, address: '93.184.216.34', family: 4 });
  }
  async request(url: string, init: GuardedRequestInit): Promise<GuardedResult> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.requests.push({ url, body: String(init.body) });
    await new Promise((r) => setTimeout(r, this.delayMs));
    this.inFlight--;
    return { kind: 'response', status: 202 };
  }
}

let store: Store;

beforeEach(async () => {
  store = await createStore({ kind: 'memory', snapshotPath: null });
});

afterEach(async () => {
  await store.close();
});

function setup(guard: FakeGuard): { webhooks: WebhooksService; events: KeyEventEmitter } {
  const webhooks = new WebhooksService(store, guard, Date.now);
  const events = new KeyEventEmitter({ webhooks, guard, serviceName: 'svc', timeoutMs: 1_000, log: new Logger('error', true, () => undefined), now: Date.now });
  return { webhooks, events };
}

describe('event data', () => {
  const key = keyRecord(ORG, 'ci', 'sk-svc-0123456789abcdefghijABCD', { allowedModels: ['m1'] });
  const next = keyRecord(ORG, 'ci', 'sk-svc-0123456789abcdefghijWXYZ');

  it('carries exactly the contract fields, masked names only', () => {
    expect(createdData(key, 'u1', false)).toEqual({ key_name: 'sk-...ABCD', key_alias: 'sk-...ABCD', models: ['m1'], actor_user_id: 'u1' });
    expect(createdData(next, null, true)).toEqual({ key_name: 'sk-...WXYZ', key_alias: 'sk-...WXYZ', models: [], actor_user_id: null, bulk_import: true });
    expect(revokedData(key, 'u1', false)).toEqual({ key_name: 'sk-...ABCD', key_alias: 'sk-...ABCD', actor_user_id: 'u1' });
    expect(revokedData(key, 'u1', true)).toEqual({ key_name: 'sk-...ABCD', key_alias: 'sk-...ABCD', actor_user_id: 'u1', bulk: true });
    expect(rotatedData(key, next, Date.parse('2030-01-01T00:00:00Z'), 24, 'u1')).toEqual({
      old_key_name: 'sk-...ABCD',
      new_key_name: 'sk-...WXYZ',
      old_key_expires_at: '2030-01-01T00:00:00.000Z',
      grace_hours: 24,
      actor_user_id: 'u1',
    });
    expect(rotatedData(key, next, null, 1, 'u1').old_key_expires_at).toBeNull();
  });
});

describe('KeyEventEmitter', () => {
  it('delivers only to enabled subscriptions that list the event, and records the status', async () => {
    const guard = new FakeGuard();
    const { webhooks, events } = setup(guard);
    const a = await webhooks.register(ORG, 'u1', { url: 'https://a.example.com/h', events: ['key.created'] });
    await webhooks.register(ORG, 'u1', { url: 'https://b.example.com/h', events: ['key.revoked'] });
    await webhooks.register('org-2', 'u1', { url: 'https://c.example.com/h', events: ['key.created'] });
    events.emit(ORG, 'key.created', { key_name: 'sk-...ABCD' });
    await events.idle();
    expect(guard.requests.map((r) => r.url)).toEqual(['https://a.example.com/h']);
    const rows = await webhooks.list(ORG);
    expect(rows.find((r) => r.id === a.id)?.last_status).toBe(202);
    expect(rows.find((r) => r.id !== a.id)?.last_status).toBeNull();
  });

  it('bounds parallel deliveries and never throws when the store fails', async () => {
    const guard = new FakeGuard(20);
    const { webhooks, events } = setup(guard);
    for (let i = 0; i < 5; i++) await webhooks.register(ORG, `u${i}`, { url: `https://h${i}.example.com/x`, events: ['key.revoked'] });
    for (let i = 0; i < 4; i++) events.emit(ORG, 'key.revoked', { key_name: `k${i}` });
    await events.idle();
    expect(guard.requests).toHaveLength(20);
    expect(guard.maxInFlight).toBe(8);
  });

  it('a store failure while looking up subscriptions is logged, never thrown at the key action', async () => {
    const guard = new FakeGuard();
    const failing = new Proxy(store, {
      get(target, prop) {
        if (prop === 'kvGet' || prop === 'setMembers') return () => Promise.reject(new StoreUnavailableError('redis down'));
        const v: unknown = Reflect.get(target, prop);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const lines: string[] = [];
    const webhooks = new WebhooksService(failing, guard, Date.now);
    const events = new KeyEventEmitter({ webhooks, guard, serviceName: 'svc', timeoutMs: 1_000, log: new Logger('info', true, (l) => lines.push(l)), now: Date.now });
    expect(() => events.emit(ORG, 'key.revoked', {})).not.toThrow();
    await expect(events.idle()).resolves.toBeUndefined();
    expect(lines.map((l) => JSON.parse(l) as { msg: string; error: string })).toEqual([expect.objectContaining({ msg: 'webhook dispatch failed', error: 'redis down' })]);
    expect(guard.requests).toHaveLength(0);
  });
});
