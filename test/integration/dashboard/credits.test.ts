import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementEntry } from '../../helpers/settlement-entry.js';
import { usdToNano } from '../../../src/billing/money.js';
import type { SettlementEntry } from '../../../src/store/contract.js';
import { startHarness, type Harness, type TestOrg } from './harness.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

let h: Harness;
let sink: SmtpSink;
let n = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  h = await startHarness({
    smtp: { host: '127.0.0.1', port: sink.port, from: 'billing@svc.example.com', helo: 'svc-test' },
    notices: { lowBalanceNano: usdToNano(5), teamWarnAt: 0.8 },
  });
});

afterAll(async () => {
  await h.close();
  await sink.close();
});

function entry(o: TestOrg, keyId: string, usd: number, extra: Partial<SettlementEntry> = {}): SettlementEntry {
  n++;
  return settlementEntry({ requestId: `req-${n}`, orgId: o.id, keyId, cost: usdToNano(usd), latencyMs: 10, at: Date.parse('2030-01-02T10:00:00Z'), ...extra });
}

const credits = (o: TestOrg): string => `/api/credits?orgId=${o.id}`;

describe('credits', () => {
  it('top-up: minimum $5, idempotent per key, Owner only', async () => {
    const o = await h.org(['owner', 'org_admin']);
    expect((await h.call('GET', credits(o), { cookie: o.cookie })).json).toEqual({ balance_usd: '0', held_usd: '0', available_usd: '0' });
    const small = await h.call('POST', `/api/credits/topup?orgId=${o.id}`, { cookie: o.cookie, body: { amount_usd: 4.99, idempotency_key: 'a' } });
    expect(small.status).toBe(400);
    expect(small.json.error).toEqual({ message: 'amount_usd must be a number from 5 to 1000000', type: 'invalid_request', code: 'invalid_request', param: 'amount_usd' });
    const noKey = await h.call('POST', `/api/credits/topup?orgId=${o.id}`, { cookie: o.cookie, body: { amount_usd: 10 } });
    expect(noKey.status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const r = await h.call('POST', `/api/credits/topup?orgId=${o.id}`, { cookie: o.cookie, body: { amount_usd: 25.5, idempotency_key: 'order-1' } });
      expect(r.status).toBe(200);
      expect(r.json.balance_usd).toBe('25.5');
    }
    const admin = await h.call('POST', `/api/credits/topup?orgId=${o.id}`, { cookie: o.users.org_admin!.cookie, body: { amount_usd: 5, idempotency_key: 'b' } });
    expect(admin.status).toBe(403);
    expect((admin.json.error as { code: string }).code).toBe('insufficient_role');
    expect((await h.call('GET', credits(o), { cookie: o.users.org_admin!.cookie })).json.balance_usd).toBe('25.5');
  });

  it('spend reports group the settled ledger by key, model, tag and day', async () => {
    const o = await h.org(['owner']);
    await h.store.topUp(o.id, usdToNano(100), 'seed');
    const a = await h.dash.services.keys.create(o.id, null, { name: 'alpha' });
    const b = await h.dash.services.keys.create(o.id, null, { name: 'beta' });
    await h.store.settle([
      entry(o, a.key.id, 1.5, { tags: ['team=search'] }),
      entry(o, a.key.id, 0.5, { model: 'claude-3-5-haiku', tags: ['team=search', 'env=prod'] }),
      entry(o, b.key.id, 0.25, { at: Date.parse('2030-01-03T01:00:00Z') }),
    ]);
    const get = async (by: string): Promise<Record<string, unknown>[]> => {
      const r = await h.call('GET', `/api/spend?orgId=${o.id}&by=${by}`, { cookie: o.cookie });
      expect(r.status).toBe(200);
      return r.json.rows as Record<string, unknown>[];
    };
    const byKey = await get('key');
    expect(byKey).toEqual(
      expect.arrayContaining([
        { group: a.key.id, key_alias: `sk-...${a.value.slice(-4)}`, key_name: 'alpha', cost_usd: '2', requests: 2, input_tokens: 200, output_tokens: 40 },
        { group: b.key.id, key_alias: `sk-...${b.value.slice(-4)}`, key_name: 'beta', cost_usd: '0.25', requests: 1, input_tokens: 100, output_tokens: 20 },
      ]),
    );
    expect(Object.fromEntries((await get('model')).map((r) => [r.group, r.cost_usd]))).toEqual({ 'gpt-4o-mini': '1.75', 'claude-3-5-haiku': '0.5' });
    expect(Object.fromEntries((await get('tag')).map((r) => [r.group, r.cost_usd]))).toEqual({ 'team=search': '2', 'env=prod': '0.5' });
    expect(Object.fromEntries((await get('day')).map((r) => [r.group, r.cost_usd]))).toEqual({ '2030-01-02': '2', '2030-01-03': '0.25' });
    const bad = await h.call('GET', `/api/spend?orgId=${o.id}&by=colour`, { cookie: o.cookie });
    expect(bad.status).toBe(400);
    const listed = (await h.call('GET', `/api/keys?orgId=${o.id}`, { cookie: o.cookie })).json.keys as { name: string; spend_usd: string }[];
    expect(Object.fromEntries(listed.map((k) => [k.name, k.spend_usd]))).toEqual({ alpha: '2', beta: '0.25' });
  });

  it('teams carry budgets; keys may join only a team of their organization', async () => {
    const o = await h.org(['owner']);
    const t = await h.call('POST', `/api/teams?orgId=${o.id}`, { cookie: o.cookie, body: { name: 'search', budget_usd: 50, rpm: 100 } });
    expect(t.status).toBe(201);
    const team = t.json.team as { id: string };
    expect(t.json.team).toMatchObject({ name: 'search', budget_usd: '50', spend_usd: '0', rpm: 100, tpm: null });
    const k = await h.call('POST', `/api/keys?orgId=${o.id}`, { cookie: o.cookie, body: { name: 'in team', team_id: team.id } });
    expect(k.status).toBe(201);
    expect((k.json.key as { team_id: string }).team_id).toBe(team.id);
    expect(((await h.call('GET', `/api/teams?orgId=${o.id}`, { cookie: o.cookie })).json.teams as unknown[]).length).toBe(1);
  });
});

describe('budget and low-balance e-mail notices', () => {
  it('one e-mail per threshold crossing to Owners and org_admins, never to members', async () => {
    const o = await h.org(['owner', 'org_admin', 'member']);
    await h.store.topUp(o.id, usdToNano(20), 'seed');
    const { key } = await h.dash.services.keys.create(o.id, null, { name: 'budgeted', budget_usd: 10, budget_warn_at: 0.5 });
    const notify = (e: SettlementEntry): Promise<void> => h.store.settle([e]).then(() => h.dash.services.notices.afterSettlement([e]));
    const start = sink.mails.length;
    await notify(entry(o, key.id, 4));
    expect(sink.mails.length).toBe(start);
    await notify(entry(o, key.id, 2)); // $6 of $10: the 50% soft threshold is crossed
    const [warn] = (await sink.waitFor(start + 1)).slice(start);
    expect(warn?.to.sort()).toEqual([o.users.owner!.email, o.users.org_admin!.email].sort());
    expect(warn?.from).toBe('billing@svc.example.com');
    expect(warn?.data).toMatch(/Subject: \[svc\] org \d+: Budget 50% used: key budgeted \(sk-\.\.\..{4}\)/);
    expect(warn?.data).toContain('has spent $6 of its $10 budget (60%)');
    await notify(entry(o, key.id, 1)); // still between 50% and 100%: no second e-mail
    await new Promise((r) => setTimeout(r, 100));
    expect(sink.mails.length).toBe(start + 1);
    await notify(entry(o, key.id, 4)); // $11: 100% reached; the balance ($9) is also above $5
    const [reached] = (await sink.waitFor(start + 2)).slice(start + 1);
    expect(reached?.data).toContain('Budget reached');
    await new Promise((r) => setTimeout(r, 100));
    expect(sink.mails.length).toBe(start + 2);
  });

  it('low balance: once when it falls under the level, again only after a top-up lifted it', async () => {
    const o = await h.org(['owner']);
    await h.store.topUp(o.id, usdToNano(6), 'seed');
    const { key } = await h.dash.services.keys.create(o.id, null, { name: 'spender' });
    const start = sink.mails.length;
    const settle = async (usd: number): Promise<void> => {
      const e = entry(o, key.id, usd);
      await h.store.settle([e]);
      await h.dash.services.notices.afterSettlement([e]);
    };
    await settle(2); // $4 left
    const [low] = (await sink.waitFor(start + 1)).slice(start);
    expect(low?.data).toContain('Low credit balance: $4');
    await settle(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(sink.mails.length).toBe(start + 1);
    const top = await h.call('POST', `/api/credits/topup?orgId=${o.id}`, { cookie: o.cookie, body: { amount_usd: 10, idempotency_key: 'refill' } });
    expect(top.json.balance_usd).toBe('13');
    await settle(9); // $4 again: a new crossing
    await sink.waitFor(start + 2);
  });
});
