import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../helpers/refusal.js';

describe('POST /v1/completions through the gateway', () => {
  let t: TestGateway;
  let client: OpenAI;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
    client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => t.close());

  it('echo prepends the prompt; the default max_tokens is 16', async () => {
    const r = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Once upon a time', echo: true });
    expect(r.choices[0]!.text.startsWith('Once upon a time')).toBe(true);
    expect(r.usage!.completion_tokens).toBeLessThanOrEqual(16);
    const sent = t.sim.stats().endpoints['/']!.lastBody as { max_completion_tokens?: number; max_tokens?: number };
    expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(16);
  });

  it('streams with a usage chunk when stream_options.include_usage is set', async () => {
    const stream = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Hello', max_tokens: 5, stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) if (c.usage) usage = c.usage;
    expect(usage?.completion_tokens).toBe(5);
  });

  for (const [name, body] of [
    ['more than 4 stops', { prompt: 'x', stop: ['a', 'b', 'c', 'd', 'e'] }],
    ['logprobs over 5', { prompt: 'x', logprobs: 6 }],
    ['max_tokens 0', { prompt: 'x', max_tokens: 0 }],
    ['missing prompt', {}],
    ['svc_fallbacks on a shape that accepts none', { prompt: 'x', svc_fallbacks: ['gpt-4o'] }],
    ['several prompts (one upstream call per prompt is not supported)', { prompt: ['a', 'b'] }],
  ] as const) {
    it(`400: ${name}`, async () => {
      const before = await snapshot(t);
      const code = name.startsWith('svc_fallbacks') ? 'fallback_not_allowed' : 'invalid_request';
      await expectRefusal(t, before, await post(t, '/v1/completions', { model: 'gpt-4o-mini', ...body }), 400, code);
    });
  }

  it('max_output_tokens_too_large over the model maximum', async () => {
    const before = await snapshot(t);
    await expectRefusal(t, before, await post(t, '/v1/completions', { model: 'gpt-4o-mini', prompt: 'x', max_tokens: 100_000 }), 400, 'max_output_tokens_too_large');
  });
});

describe('cacheable routes and the body model', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  it('completions and responses emit x-svc-response-cache (miss: there is no cache yet)', async () => {
    const c = await post(t, '/v1/completions', { model: 'gpt-4o-mini', prompt: 'hi', max_tokens: 3 });
    expect(c.headers.get('x-svc-response-cache')).toBe('miss');
    const r = await post(t, '/v1/responses', { model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 16 });
    expect(r.headers.get('x-svc-response-cache')).toBe('miss');
    const b = await post(t, '/v1/responses', { model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 16, svc_cache: false });
    expect(b.headers.get('x-svc-response-cache')).toBe('bypass');
  });

  it('after a failover the body names the model that answered', async () => {
    t.sim.configure('/mistral', { fault: '529', faultCount: 1 });
    const res = await post(t, '/v1/messages', { model: 'mistral/mistral-large', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], svc_fallbacks: ['google/gemini-2.0-flash'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-model')).toBe('google/gemini-2.0-flash');
    expect(((await res.json()) as { model: string }).model).toBe('google/gemini-2.0-flash');
  });
});
