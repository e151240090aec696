/**
 * Contract cases: admission. Time is controlled through `now`: an entry stamped t counts while
 * t > now - 60 000, so at now = t + 60 000 it no longer counts.
 */
import { expect, it } from 'vitest';
import type { AdmitRequest, LimitScope, Store } from '../../src/store/contract.js';
import { orgWithKey, scope, settlement, uid } from './store-fixtures.js';

const T0 = 1_750_000_000_000;

function request(orgId: string, keyId: string, scopes: LimitScope[], over: Partial<AdmitRequest> = {}): AdmitRequest {
  return { orgId, keyId, requestId: uid('req'), now: T0, tokens: 0, scopes, leaseTtlMs: 30_000, ...over };
}

export function admitCases(get: () => Store): void {
  it('refuses a key that is revoked, blocked or missing, on the very next request', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    expect(await store.admit(request(orgId, key.id, []))).toEqual({ ok: true });
    await store.updateKey(orgId, key.id, { status: 'revoked' });
    expect(await store.admit(request(orgId, key.id, []))).toEqual({ ok: false, kind: 'key_status', status: 'revoked' });
    await store.updateKey(orgId, key.id, { status: 'blocked' });
    expect(await store.admit(request(orgId, key.id, []))).toEqual({ ok: false, kind: 'key_status', status: 'blocked' });
    expect(await store.admit(request(orgId, uid('key'), []))).toEqual({ ok: false, kind: 'key_status', status: 'missing' });
  });

  it('admits exactly rpm requests in 60 s, refuses the next with the time until the oldest leaves', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const scopes = [scope('key', key.id, { rpm: 5 })];
    for (let i = 0; i < 5; i++) {
      expect(await store.admit(request(orgId, key.id, scopes, { now: T0 + i * 1_000 }))).toEqual({ ok: true });
    }
    expect(await store.admit(request(orgId, key.id, scopes, { now: T0 + 5_000 }))).toEqual({
      ok: false,
      kind: 'rpm',
      source: 'key',
      retryAfterMs: 55_000,
    });
    // Just before the oldest entry leaves it still counts; at exactly 60 s it does not.
    expect((await store.admit(request(orgId, key.id, scopes, { now: T0 + 59_999 }))).ok).toBe(false);
    expect(await store.admit(request(orgId, key.id, scopes, { now: T0 + 60_000 }))).toEqual({ ok: true });
    expect(await store.admit(request(orgId, key.id, scopes, { now: T0 + 60_000 }))).toEqual({
      ok: false,
      kind: 'rpm',
      source: 'key',
      retryAfterMs: 1_000,
    });
    // Two minutes later the whole window has slid away.
    for (let i = 0; i < 5; i++) expect((await store.admit(request(orgId, key.id, scopes, { now: T0 + 200_000 }))).ok).toBe(true);
  });

  it('records nothing when any scope refuses (all-or-nothing), including leases', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const keyScope = scope('key', key.id, { rpm: 3, tpm: 20, maxConcurrency: 2 });
    const both = [keyScope, scope('team', 'team-a', { rpm: 1 })];
    expect((await store.admit(request(orgId, key.id, both, { tokens: 10 }))).ok).toBe(true);
    expect(await store.admit(request(orgId, key.id, both, { tokens: 10 }))).toMatchObject({ ok: false, kind: 'rpm', source: 'team' });
    // Had the refused request been recorded in the key scope, the next admit would fail on TPM (30 > 20) or
    // concurrency (3 > 2); the one after would fail on RPM instead of concurrency.
    expect(await store.admit(request(orgId, key.id, [keyScope], { tokens: 10 }))).toEqual({ ok: true });
    expect(await store.admit(request(orgId, key.id, [keyScope]))).toMatchObject({ ok: false, kind: 'concurrency', source: 'key' });
  });

  it('reports the first failing scope in the given order', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const k = scope('key', key.id, { rpm: 10 });
    const team = scope('team', 'team-a', { rpm: 1 });
    const plan = scope('plan', orgId, { tpm: 100 });
    const user = scope('user', 'alice@example.com', { maxConcurrency: 1 });
    expect((await store.admit(request(orgId, key.id, [k, team, plan, user], { tokens: 60 }))).ok).toBe(true);
    // team (rpm), plan (tpm) and user (concurrency) all fail now; the order decides which is reported.
    const again = { tokens: 60 };
    expect(await store.admit(request(orgId, key.id, [k, team, plan, user], again))).toMatchObject({ kind: 'rpm', source: 'team' });
    expect(await store.admit(request(orgId, key.id, [k, plan, team, user], again))).toMatchObject({ kind: 'tpm', source: 'plan' });
    expect(await store.admit(request(orgId, key.id, [user, plan, team], again))).toMatchObject({
      kind: 'concurrency',
      source: 'user',
    });
  });

  it('sums tokens for TPM, reports when enough tokens leave, and corrects the estimate at settlement', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const scopes = [scope('plan', orgId, { tpm: 1_000 })];
    const first = request(orgId, key.id, scopes, { tokens: 300, now: T0 });
    expect(await store.admit(first)).toEqual({ ok: true });
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 300, now: T0 + 10_000 }))).toEqual({ ok: true });
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 300, now: T0 + 20_000 }))).toEqual({ ok: true });
    // 900 in window: 400 more needs the first entry gone (at T0 + 60 s), 700 more needs the second too.
    const at30 = { now: T0 + 30_000 };
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 400, ...at30 }))).toEqual({
      ok: false,
      kind: 'tpm',
      source: 'plan',
      retryAfterMs: 30_000,
    });
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 700, ...at30 }))).toMatchObject({ retryAfterMs: 40_000 });
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 2_000, ...at30 }))).toMatchObject({ retryAfterMs: 60_000 });
    // Actual usage of the first request was 100, not 300: 200 tokens come back at once.
    await store.settle([settlement(orgId, key.id, { requestId: first.requestId, tokens: 100, scopes })]);
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 300, ...at30 }))).toEqual({ ok: true });
    expect((await store.admit(request(orgId, key.id, scopes, { tokens: 1, ...at30 }))).ok).toBe(false);
    // After the first two leave the window (T0 + 70 s): 300 + 300 remain, so 400 fits exactly.
    expect(await store.admit(request(orgId, key.id, scopes, { tokens: 400, now: T0 + 70_000 }))).toEqual({ ok: true });
  });

  it('limits concurrency with leases that settle, releaseLeases or expiry give back', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const scopes = [scope('key', key.id, { maxConcurrency: 2 })];
    const a = request(orgId, key.id, scopes, { leaseTtlMs: 5_000 });
    const b = request(orgId, key.id, scopes, { leaseTtlMs: 5_000 });
    expect(await store.admit(a)).toEqual({ ok: true });
    expect(await store.admit(b)).toEqual({ ok: true });
    const refused = await store.admit(request(orgId, key.id, scopes));
    expect(refused).toMatchObject({ ok: false, kind: 'concurrency', source: 'key' });
    if (refused.ok || refused.kind === 'key_status') throw new Error('expected a concurrency refusal');
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(5_000);

    await store.releaseLeases(orgId, a.requestId, scopes);
    await store.releaseLeases(orgId, a.requestId, scopes);
    const c = request(orgId, key.id, scopes, { leaseTtlMs: 5_000 });
    expect(await store.admit(c)).toEqual({ ok: true });
    expect((await store.admit(request(orgId, key.id, scopes))).ok).toBe(false);

    await store.settle([settlement(orgId, key.id, { requestId: b.requestId, scopes })]);
    expect(await store.admit(request(orgId, key.id, scopes, { leaseTtlMs: 5_000 }))).toEqual({ ok: true });
    expect((await store.admit(request(orgId, key.id, scopes))).ok).toBe(false);
    // A crashed node's leases (c and the last one) expire after leaseTtlMs.
    expect((await store.admit(request(orgId, key.id, scopes, { now: T0 + 4_999 }))).ok).toBe(false);
    expect(await store.admit(request(orgId, key.id, scopes, { now: T0 + 5_000 }))).toEqual({ ok: true });
  });

  it('keeps windows apart per scope id, per source and per org', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    const other = await orgWithKey(store);
    const limited = (source: LimitScope['source'], id: string): LimitScope[] => [scope(source, id, { rpm: 1 })];
    expect((await store.admit(request(orgId, key.id, limited('user', 'alice')))).ok).toBe(true);
    expect((await store.admit(request(orgId, key.id, limited('user', 'alice')))).ok).toBe(false);
    expect((await store.admit(request(orgId, key.id, limited('user', 'bob')))).ok).toBe(true);
    expect((await store.admit(request(orgId, key.id, limited('team', 'alice')))).ok).toBe(true);
    expect((await store.admit(request(other.orgId, other.key.id, limited('user', 'alice')))).ok).toBe(true);
  });
}
