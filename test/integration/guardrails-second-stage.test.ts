/**
 * The optional second guardrail stage through HTTP: a moderation model (the simulator's OpenAI moderation
 * endpoint) judges the categories whose first-stage score is in the uncertain band. Thresholds are set so the
 * first stage never flags a moderation category itself, which makes the band cover (nearly) every score and the
 * verdict the simulator's, asked for in the text with `sim-flag:<category>`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, usdToNano } from '../../src/billing/money.js';
import { costOf } from '../../src/billing/price.js';
import type { GatewayConfig } from '../../src/config/schema.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { METRICS_TOKEN, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
const PRICE_USD = 0.000123;
const pricing = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.pricing!;
const ask = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], max_tokens: 5 });
const NEVER = { hate: 1, 'hate/threatening': 1, 'self-harm': 1, sexual: 1, 'sexual/minors': 1, violence: 1, 'violence/graphic': 1, prompt_injection: 1 };

function withSecondStage(band: { from: number; to: number }) {
  return (c: GatewayConfig): void => {
    const origin = new URL(c.models[0]!.endpoints[0]!.baseUrl).origin;
    c.guardrails.secondStage = {
      endpoint: { provider: 'openai', upstreamModel: 'omni-moderation-latest', baseUrl: `${origin}/moderation/v1`, apiKeyEnv: null },
      band,
      timeoutMs: 5000,
      priceUsd: PRICE_USD,
    };
    c.guardrails.timeoutMs = 5000;
  };
}

const moderationCalls = (t: TestGateway): number => t.sim.stats().endpoints['/moderation']?.requests ?? 0;
const chatCalls = (t: TestGateway): number => t.sim.stats().requests - moderationCalls(t);
const metrics = async (t: TestGateway): Promise<string> =>
  (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

describe('guardrail second stage over the uncertain band', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'enforce', thresholds: NEVER } }, patch: withSecondStage({ from: 0.01, to: 1 }) });
  });
  afterAll(async () => t.close());

  it('refuses what the moderation model flags: 400 guardrail_blocked naming the category, no provider call, no credit moved', async () => {
    const before = await snapshot(t);
    const chats = chatCalls(t);
    // A war film: its violence score is in the band (well over 0.01, under 1), and the moderation model flags it.
    const res = await post(t, CHAT, ask('The battle scene in the film was bloody and violent. sim-flag:violence'));
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(400);
    expect(body.error.code).toBe('guardrail_blocked');
    expect(body.error.message).toContain('category violence');
    expect(res.headers.get('x-svc-guardrails')).toBe('blocked');
    expect(res.headers.get('x-svc-request-cost')).toBeNull();
    expect(res.headers.get('x-svc-request-id')).toBeTruthy();
    expect(res.headers.get('x-svc-routing')).toBeNull();
    expect(res.headers.get('x-svc-attempts')).toBeNull();
    expect(moderationCalls(t)).toBe(1);
    expect(chatCalls(t)).toBe(chats);
    await new Promise((r) => setTimeout(r, 20));
    const after = await snapshot(t);
    expect({ balance: after.balance, held: after.held, ledger: after.ledger }).toEqual({ balance: before.balance, held: 0, ledger: before.ledger });
    expect(await metrics(t)).toMatch(/svc_guardrail_second_stage_total\{outcome="answered"\} [1-9]/);
  });

  it('serves what the moderation model clears, and charges its call to the organization with the request', async () => {
    const res = await post(t, CHAT, ask('What is the capital of France?'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-guardrails')).toBe('pass');
    const u = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const cost = costOf(pricing, { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }) + usdToNano(PRICE_USD);
    expect(res.headers.get('x-svc-request-cost')).toBe(formatUsd(cost));
    await t.gw.deps.settlement.flush();
    const entry = await t.store.getLedgerEntry(t.orgId, res.headers.get('x-svc-request-id')!);
    expect(entry?.cost).toBe(cost);
  });

  it('keeps the first stage\'s verdict when the moderation model does not answer in time', async () => {
    t.gw.deps.config.guardrails.secondStage!.timeoutMs = 100;
    t.sim.configure('/moderation', { firstByteMs: 1000 });
    try {
      const started = Date.now();
      const res = await post(t, CHAT, ask('Tell me about the film. sim-flag:violence'));
      expect(res.status).toBe(200); // the first stage did not flag it (thresholds at 1)
      expect(res.headers.get('x-svc-guardrails')).toBe('pass');
      expect(Date.now() - started).toBeLessThan(900);
      expect(await metrics(t)).toMatch(/svc_guardrail_second_stage_total\{outcome="timeout"\} [1-9]/);
      await expect.poll(() => t.logs.some((l) => l.includes('guardrail second stage gave no verdict'))).toBe(true);
    } finally {
      t.sim.configure('/moderation', { firstByteMs: 0 });
      t.gw.deps.config.guardrails.secondStage!.timeoutMs = 5000;
    }
  });
});

describe('guardrail second stage outside the band', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'enforce', thresholds: NEVER } }, patch: withSecondStage({ from: 0.99, to: 1 }) });
  });
  afterAll(async () => t.close());

  it('is not called when no score is uncertain, and costs nothing', async () => {
    const res = await post(t, CHAT, ask('What is the capital of France? sim-flag:violence'));
    expect(res.status).toBe(200);
    expect(moderationCalls(t)).toBe(0);
    const u = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const cost = costOf(pricing, { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(res.headers.get('x-svc-request-cost')).toBe(formatUsd(cost));
  });
});
