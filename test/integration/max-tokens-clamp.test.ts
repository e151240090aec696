/**
 * Operator issue, item 6: a small budget can still make a call. With no max_tokens, a hold for the model's
 * full output limit does not fit a nearly empty balance or budget; the gateway lowers the output cap to what
 * the credit covers, sends that cap upstream, says so in x-svc-max-tokens-clamped, and never overspends.
 * Only when not even a minimal answer fits is the request refused 402.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdToNano } from '../../src/billing/money.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
let upstream: Server;
let bodies: Record<string, unknown>[] = [];
let t: TestGateway;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  t = await startTestGateway({
    config: { guardrails: { mode: 'off' } },
    patch: (c) => {
      const m = c.models.find((x) => x.id === 'gpt-4o-mini')!;
      m.endpoints = m.endpoints.map((e) => ({ ...e, baseUrl: base }));
    },
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise((r) => upstream?.close(r));
});

const ASK = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of France, one word?' }] };
/** gpt-4o-mini: $0.60 per M output tokens, 16,384 max output: a full-limit hold is about $0.0098. */
const maxTokensSent = (b: Record<string, unknown>): unknown => b.max_completion_tokens ?? b.max_tokens;

describe('output cap clamped to what credit covers', () => {
  it('org balance of $0.002: served with a lower cap, sent upstream, reported, within the balance', async () => {
    await t.addOrg('org-small', 0);
    await t.store.topUp('org-small', usdToNano(0.002), 'seed-small');
    const k = await t.addKey({ orgId: 'org-small' });
    bodies = [];
    const res = await post(t, CHAT, ASK, { authorization: `Bearer ${k.value}` });
    const json = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(res.status).toBe(200);
    expect(json.choices[0]!.message.content).toBe('Paris.');
    const clamped = Number(res.headers.get('x-svc-max-tokens-clamped'));
    expect(clamped).toBeGreaterThanOrEqual(16);
    expect(clamped).toBeLessThan(16_384);
    // The hold for `clamped` output tokens fits $0.002 (and one more token would not, give or take the input bound).
    expect(clamped * 0.6e-6).toBeLessThanOrEqual(0.002);
    expect(clamped).toBeGreaterThan(3000);
    expect(bodies).toHaveLength(1);
    expect(maxTokensSent(bodies[0]!)).toBe(clamped);
    await t.gw.deps.settlement.flush();
    const balance = await t.store.getBalance('org-small');
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeGreaterThanOrEqual(0);
  });

  it('a key budget nearly spent: clamped the same way, the budget is the source', async () => {
    const k = await t.addKey({ budget: usdToNano(0.001) });
    bodies = [];
    const res = await post(t, CHAT, { ...ASK, stream: true }, { authorization: `Bearer ${k.value}` });
    expect(res.status).toBe(200);
    await res.text();
    const clamped = Number(res.headers.get('x-svc-max-tokens-clamped'));
    expect(clamped).toBeGreaterThanOrEqual(16);
    expect(clamped * 0.6e-6).toBeLessThanOrEqual(0.001);
    expect(maxTokensSent(bodies[0]!)).toBe(clamped);
  });

  it('a stated max_tokens is never changed: refused 402 when it does not fit', async () => {
    await t.addOrg('org-stated', 0);
    await t.store.topUp('org-stated', usdToNano(0.002), 'seed-stated');
    const k = await t.addKey({ orgId: 'org-stated' });
    const before = await snapshot(t, 'org-stated');
    const res = await post(t, CHAT, { ...ASK, max_tokens: 16_000 }, { authorization: `Bearer ${k.value}` });
    await expectRefusal(t, before, res, 402, 'insufficient_credits', { 'x-svc-limit-source': 'plan' }, 'org-stated');
    expect(res.headers.get('x-svc-max-tokens-clamped')).toBeNull();
  });

  it('refused 402 when not even a minimal answer fits; nothing reaches the upstream', async () => {
    await t.addOrg('org-empty', 0);
    await t.store.topUp('org-empty', usdToNano(0.000005), 'seed-empty'); // $0.000005 covers about 8 output tokens
    const k = await t.addKey({ orgId: 'org-empty' });
    const before = await snapshot(t, 'org-empty');
    bodies = [];
    const res = await post(t, CHAT, ASK, { authorization: `Bearer ${k.value}` });
    await expectRefusal(t, before, res, 402, 'insufficient_credits', { 'x-svc-limit-source': 'plan' }, 'org-empty');
    expect(bodies).toHaveLength(0);
  });

  it('a full balance is not clamped and the passthrough sends no cap of its own', async () => {
    bodies = [];
    const res = await post(t, CHAT, ASK);
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get('x-svc-max-tokens-clamped')).toBeNull();
    expect(maxTokensSent(bodies[0]!)).toBeUndefined();
  });
});
