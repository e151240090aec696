import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdToNano } from '../../src/billing/money.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
const ask = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Tell me about the sea.' }], max_tokens: 40 };

describe('per-key budget: soft threshold warning, hard limit', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  it("warns on the very response whose own cost crosses the threshold", async () => {
    const k = await t.addKey({ budget: usdToNano(0.01), budgetWarnAt: 0.02 }); // threshold $0.0002
    const res = await post(t, CHAT, ask, { authorization: `Bearer ${k.value}` });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-svc-request-cost'))).toBeGreaterThan(0.0002);
    expect(res.headers.get('x-svc-budget-warning')).toMatch(/crossed 2% of its \$0\.01 budget/);
  });

  it('adds x-svc-budget-warning once spend crosses the soft threshold, and refuses 402 budget when the hold no longer fits', async () => {
    // gpt-4o: a 40-token answer costs about $0.0004 + input; a hold is about $0.0005.
    const k = await t.addKey({ budget: usdToNano(0.002), budgetWarnAt: 0.5 });
    const auth = { authorization: `Bearer ${k.value}` };
    const first = await post(t, CHAT, ask, auth);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-svc-budget-warning')).toBeNull();
    let warned: string | null = null;
    let refused: Response | null = null;
    for (let i = 0; i < 20 && !refused; i++) {
      await t.gw.deps.settlement.flush();
      const before = await snapshot(t);
      const res = await post(t, CHAT, ask, auth);
      if (res.status === 200) {
        warned ??= res.headers.get('x-svc-budget-warning');
        await res.arrayBuffer();
      } else {
        refused = res;
        await expectRefusal(t, before, res, 402, 'insufficient_credits', { 'x-svc-limit-source': 'budget' });
      }
    }
    expect(warned).toMatch(/crossed 50% of its \$0\.002 budget/);
    expect(refused).not.toBeNull();
    const spent = await t.store.scopeSpend(t.orgId, 'key', k.record.id);
    expect(spent).toBeLessThanOrEqual(usdToNano(0.002)); // never over the budget
  });
});
