import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../../src/billing/price.js';
import { formatUsd } from '../../src/billing/money.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const pricing = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.pricing!;

async function settled(t: TestGateway, requestId: string) {
  for (let i = 0; i < 100; i++) {
    const e = await t.store.getLedgerEntry(t.orgId, requestId);
    if (e) {
      // The ledger entry is visible once its transaction commits; the batch's hold release follows the commit.
      await t.gw.deps.settlement.flush();
      return e;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`request ${requestId} never settled`);
}

describe('POST /v1/chat/completions through the gateway (official openai client)', () => {
  let t: TestGateway;
  let client: OpenAI;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
    client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => t.close());

  it('answers non-stream with exact cost and token headers, and settles that cost', async () => {
    const before = await t.store.getBalance(t.orgId);
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello to the gateway' }], max_tokens: 20 })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBeTruthy();
    const h = response.headers;
    const u = data.usage!;
    expect(h.get('x-svc-model')).toBe('gpt-4o-mini');
    expect(h.get('x-svc-routing')).toBe('direct');
    expect(h.get('x-svc-attempts')).toBe('1');
    expect(h.get('x-svc-cost-status')).toBe('exact');
    expect(h.get('x-svc-guardrails')).toBe('none');
    expect(Number(h.get('x-svc-input-tokens'))).toBe(u.prompt_tokens);
    expect(Number(h.get('x-svc-output-tokens'))).toBe(u.completion_tokens);
    expect(Number(h.get('x-svc-total-tokens'))).toBe(u.total_tokens);
    const cost = costOf(pricing, {
      inputTokens: u.prompt_tokens,
      outputTokens: u.completion_tokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(h.get('x-svc-request-cost')).toBe(formatUsd(cost));
    expect(h.get('x-svc-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(h.get('x-svc-latency-ms'))).toBeGreaterThanOrEqual(0);
    const entry = await settled(t, h.get('x-svc-request-id')!);
    expect(entry.cost).toBe(cost);
    const after = await t.store.getBalance(t.orgId);
    expect(before.balance - after.balance).toBe(cost);
    expect(after.held).toBe(0);
  });

  it('streams with the SDK, settles at end of stream from upstream usage', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream something' }], max_tokens: 12, stream: true })
      .withResponse();
    let text = '';
    let finish: string | null = null;
    let sawUsage = false;
    for await (const chunk of stream) {
      if (chunk.usage) sawUsage = true;
      const c = chunk.choices[0];
      if (c?.delta.content) text += c.delta.content;
      if (c?.finish_reason) finish = c.finish_reason;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBe('length');
    expect(sawUsage).toBe(false); // the gateway asked upstream for usage; the client did not
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const entry = await settled(t, response.headers.get('x-svc-request-id')!);
    expect(entry.outputTokens).toBe(12);
    expect(entry.cost).toBe(
      costOf(pricing, { inputTokens: entry.inputTokens, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }),
    );
    const sent = t.sim.stats().endpoints['/']!.lastBody as Record<string, unknown>;
    expect(sent.stream_options).toEqual({ include_usage: true });
  });

  it('passes the usage chunk through when the client asks for it', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'usage please' }],
      max_tokens: 5,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.completion_tokens).toBe(5);
  });

  it('strips control fields before forwarding and forwards the upstream model name', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 3,
      // @ts-expect-error control field unknown to the SDK types
      svc_cache: false,
    });
    const sent = t.sim.stats().endpoints['/']!.lastBody as Record<string, unknown>;
    expect(sent.svc_cache).toBeUndefined();
    const bypass = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3, svc_cache: false }),
    });
    expect(bypass.headers.get('x-svc-response-cache')).toBe('bypass');
    // The per-message control field is read and removed before forwarding, and must be a boolean.
    const perMessage = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi', svc_compress: false }], max_tokens: 3 }),
    });
    expect(perMessage.status).toBe(200);
    const forwarded = t.sim.stats().endpoints['/']!.lastBody as { messages: Record<string, unknown>[] };
    expect(forwarded.messages[0]).toEqual({ role: 'user', content: 'hi' });
    const badPerMessage = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi', svc_compress: 'no' }], max_tokens: 3 }),
    });
    expect(badPerMessage.status).toBe(400);
    const compress = async (value: string) =>
      fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'x-svc-compress': value },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
      });
    expect((await compress('off')).headers.get('x-svc-compression')).toBe('off');
    expect((await compress('on')).headers.get('x-svc-compression')).toBe('skipped');
    expect((await compress('maybe')).status).toBe(400);
    expect(sent.model).toBe('gpt-4o-mini-2024-07-18');
  });

  it('attributes spend to x-svc-tags and the user field', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'tagged' }], max_tokens: 3, user: 'end-user-42' }, { headers: { 'x-svc-tags': 'team=search, env=prod' } })
      .withResponse();
    const cost = Math.round(Number(response.headers.get('x-svc-request-cost')) * 1e9);
    await settled(t, response.headers.get('x-svc-request-id')!);
    const tags = await t.store.spend(t.orgId, 'tag');
    expect(tags.find((r) => r.group === 'team=search')?.cost).toBe(cost);
    expect(tags.find((r) => r.group === 'env=prod')?.cost).toBe(cost);
    const users = await t.store.spend(t.orgId, 'user');
    expect(users.find((r) => r.group === 'end-user-42')?.requests).toBe(1);
  });

  it('emits the x-legacy-* family for sk-legacy- keys', async () => {
    const { value, record } = await t.addKey({ prefix: 'sk-legacy-' });
    const legacy = new OpenAI({ apiKey: value, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const { response } = await legacy.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 })
      .withResponse();
    const h = response.headers;
    expect(h.get('x-legacy-request-id')).toBe(h.get('x-svc-request-id'));
    expect(h.get('x-legacy-request-cost')).toBe(h.get('x-svc-request-cost'));
    expect(h.get('x-legacy-org-id')).toBe(t.orgId);
    expect(h.get('x-legacy-key-alias')).toBe(`sk-...${record.last4}`);
    expect(h.get('x-legacy-latency-ms')).toBe(h.get('x-svc-latency-ms'));
  });
});
