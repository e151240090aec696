/** Contract cases: top-ups and credit holds (plan balance, budgets, TTL, idempotency). */
import { expect, it } from 'vitest';
import type { BudgetScope, HoldRequest, Store } from '../../src/store/contract.js';
import { orgWithKey, settlement, uid } from './store-fixtures.js';

function holdReq(orgId: string, amount: number, over: Partial<HoldRequest> = {}): HoldRequest {
  return { orgId, requestId: uid('req'), amount, now: Date.now(), ttlMs: 60_000, budgets: [], ...over };
}

export function creditCases(get: () => Store): void {
  it('applies a top-up once per idempotency key', async () => {
    const store = get();
    const { orgId } = await orgWithKey(store);
    expect(await store.getBalance(orgId)).toEqual({ balance: 0, held: 0 });
    expect(await store.topUp(orgId, 5_000_000_000, 'stripe-evt-1')).toEqual({ balance: 5_000_000_000, held: 0 });
    expect(await store.topUp(orgId, 5_000_000_000, 'stripe-evt-1')).toEqual({ balance: 5_000_000_000, held: 0 });
    expect(await store.topUp(orgId, 7, 'stripe-evt-2')).toEqual({ balance: 5_000_000_007, held: 0 });
    // The same idempotency key in another org is another top-up.
    const other = await orgWithKey(store);
    expect((await store.topUp(other.orgId, 3, 'stripe-evt-1')).balance).toBe(3);
    expect(await store.getBalance(orgId)).toEqual({ balance: 5_000_000_007, held: 0 });
  });

  it('holds up to the available credit and refuses beyond it with source plan', async () => {
    const store = get();
    const { orgId } = await orgWithKey(store);
    await store.topUp(orgId, 1_000, 't1');
    expect(await store.hold(holdReq(orgId, 600))).toEqual({ ok: true, available: 400 });
    expect(await store.hold(holdReq(orgId, 401))).toEqual({ ok: false, source: 'plan', available: 400 });
    expect(await store.hold(holdReq(orgId, 400))).toEqual({ ok: true, available: 0 });
    expect(await store.hold(holdReq(orgId, 1))).toEqual({ ok: false, source: 'plan', available: 0 });
    expect(await store.getBalance(orgId)).toEqual({ balance: 1_000, held: 1_000 });
  });

  it('is idempotent per request id and releases on releaseHold (idempotently, unknown id is a no-op)', async () => {
    const store = get();
    const { orgId } = await orgWithKey(store);
    await store.topUp(orgId, 1_000, 't1');
    const h = holdReq(orgId, 700);
    expect(await store.hold(h)).toEqual({ ok: true, available: 300 });
    expect(await store.hold(h)).toEqual({ ok: true, available: 300 });
    expect(await store.hold({ ...h, amount: 900 })).toEqual({ ok: true, available: 300 });
    expect((await store.getBalance(orgId)).held).toBe(700);
    await store.releaseHold(orgId, h.requestId);
    await store.releaseHold(orgId, h.requestId);
    await store.releaseHold(orgId, uid('req'));
    expect(await store.getBalance(orgId)).toEqual({ balance: 1_000, held: 0 });
    expect(await store.hold(holdReq(orgId, 1_000))).toEqual({ ok: true, available: 0 });
  });

  it('frees an expired hold: a dead node cannot pin credit beyond the TTL', async () => {
    const store = get();
    const { orgId } = await orgWithKey(store);
    await store.topUp(orgId, 1_000, 't1');
    const now = Date.now();
    expect((await store.hold(holdReq(orgId, 800, { now, ttlMs: 1_000 }))).ok).toBe(true);
    expect(await store.hold(holdReq(orgId, 500, { now: now + 999 }))).toEqual({ ok: false, source: 'plan', available: 200 });
    expect(await store.hold(holdReq(orgId, 500, { now: now + 1_000 }))).toEqual({ ok: true, available: 500 });
    expect((await store.getBalance(orgId)).held).toBe(500);
  });

  it('refuses a hold that would take a key or team budget past its limit, counting spend and holds', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 1_000_000, 't1');
    const keyBudget: BudgetScope = { source: 'key', id: key.id, limit: 1_000 };
    const teamBudget: BudgetScope = { source: 'team', id: 'team-a', limit: 1_500 };
    const budgets = [keyBudget, teamBudget];
    const first = holdReq(orgId, 600, { budgets });
    expect(await store.hold(first)).toEqual({ ok: true, available: 999_400 });
    expect(await store.hold(holdReq(orgId, 500, { budgets }))).toEqual({ ok: false, source: 'budget', available: 999_400 });
    expect((await store.hold(holdReq(orgId, 400, { budgets }))).ok).toBe(true);
    // Key budget full (600 + 400 held); the team has 500 left, usable by another key of the team.
    expect((await store.hold(holdReq(orgId, 1, { budgets }))).ok).toBe(false);
    expect((await store.hold(holdReq(orgId, 500, { budgets: [teamBudget] }))).ok).toBe(true);
    expect((await store.hold(holdReq(orgId, 1, { budgets: [teamBudget] }))).ok).toBe(false);
    // Settling the first at 550 turns 600 held into 550 spent: 50 frees up on the key budget.
    const entry = settlement(orgId, key.id, { requestId: first.requestId, cost: 550, teamId: 'team-a', hadHold: true });
    expect(await store.settle([entry])).toEqual([first.requestId]);
    expect(await store.scopeSpend(orgId, 'key', key.id)).toBe(550);
    expect((await store.hold(holdReq(orgId, 51, { budgets: [keyBudget] }))).ok).toBe(false);
    expect((await store.hold(holdReq(orgId, 50, { budgets: [keyBudget] }))).ok).toBe(true);
  });

  it('releases budget holds on expiry too', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 1_000_000, 't1');
    const budgets: BudgetScope[] = [{ source: 'key', id: key.id, limit: 100 }];
    const now = Date.now();
    expect((await store.hold(holdReq(orgId, 100, { budgets, now, ttlMs: 500 }))).ok).toBe(true);
    expect((await store.hold(holdReq(orgId, 100, { budgets, now: now + 100 }))).ok).toBe(false);
    expect((await store.hold(holdReq(orgId, 100, { budgets, now: now + 500 }))).ok).toBe(true);
  });

  it('answers ok without a new hold for a request that was already settled', async () => {
    const store = get();
    const { orgId, key } = await orgWithKey(store);
    await store.topUp(orgId, 1_000, 't1');
    const e = settlement(orgId, key.id, { cost: 100 });
    await store.settle([e]);
    expect(await store.hold(holdReq(orgId, 500, { requestId: e.requestId }))).toEqual({ ok: true, available: 900 });
    expect(await store.getBalance(orgId)).toEqual({ balance: 900, held: 0 });
  });
}
