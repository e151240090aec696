import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/billing/money.js';
import { costOf } from '../../src/billing/price.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { snapshot } from '../helpers/refusal.js';

const SONNET = DEMO_CATALOG.find((m) => m.id === 'anthropic/claude-sonnet-4')!.pricing!;

describe('messages route: cache-token billing, x-api-key, count_tokens', () => {
  let t: TestGateway;
  let client: Anthropic;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        // The simulator reports provider prompt-cache reads/writes when told so by a request header.
        const m = c.models.find((x) => x.id === 'anthropic/claude-sonnet-4')!;
        m.endpoints = m.endpoints.map((e) => ({ ...e, headers: { 'x-sim-cache-read-tokens': '5', 'x-sim-cache-write-tokens': '3' } }));
      },
    });
    client = new Anthropic({ apiKey: t.key, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(async () => t.close());

  it('bills cache reads and writes at their own rates; cache headers and total tokens reconcile with the cost', async () => {
    const { data, response } = await client.messages
      .create({
        model: 'anthropic/claude-sonnet-4',
        max_tokens: 50,
        system: [{ type: 'text', text: 'You are terse. '.repeat(20), cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'Hello there' }],
      })
      .withResponse();
    const u = data.usage;
    expect(u.cache_read_input_tokens).toBe(5);
    expect(u.cache_creation_input_tokens).toBe(3);
    const h = response.headers;
    expect(h.get('x-svc-cache-read-tokens')).toBe('5');
    expect(h.get('x-svc-cache-write-tokens')).toBe('3');
    const usage = { inputTokens: u.input_tokens, outputTokens: u.output_tokens, cacheReadTokens: 5, cacheWriteTokens: 3, reasoningTokens: 0 };
    expect(Number(h.get('x-svc-total-tokens'))).toBe(u.input_tokens + u.output_tokens + 8);
    expect(Number(h.get('x-svc-input-tokens'))).toBe(u.input_tokens + 8);
    expect(h.get('x-svc-request-cost')).toBe(formatUsd(costOf(SONNET, usage)));
    expect(h.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
  });

  it('omits the cache headers when there were no cache tokens', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-cache-read-tokens')).toBeNull();
    expect(res.headers.get('x-svc-cache-write-tokens')).toBeNull();
  });

  it('accepts the key as x-api-key (with anthropic-version and compat-version) like the Bearer header', async () => {
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'anthropic-version': '2023-06-01', 'compat-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const bad = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-svc-wrong-000000000000000000', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('x-svc-auth-reason')).toBe('unauthorized');
  });

  it('missing max_tokens on messages is 400 invalid_request', async () => {
    const before = await snapshot(t);
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect(await snapshot(t)).toEqual(before);
  });

  it('count_tokens counts system, messages and tool schemas exactly, with no inference, no hold and $0', async () => {
    const before = await snapshot(t);
    const base = { model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user' as const, content: 'How many tokens is this?' }] };
    const { data, response } = await client.messages.countTokens(base).withResponse();
    expect(data.input_tokens).toBeGreaterThan(5);
    const withSystem = await client.messages.countTokens({ ...base, system: 'You are a very helpful assistant.' });
    expect(withSystem.input_tokens).toBeGreaterThan(data.input_tokens);
    const withTools = await client.messages.countTokens({
      ...base,
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(withTools.input_tokens).toBeGreaterThan(data.input_tokens);
    expect(response.headers.get('x-svc-request-id')).toBeTruthy();
    expect(response.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
    expect(response.headers.get('x-svc-request-cost')).toBe('0');
    const after = await snapshot(t);
    expect(after).toEqual(before);
    const missing = await fetch(`${t.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, model: 'nope' }),
    });
    expect(missing.status).toBe(404);
  });
});
