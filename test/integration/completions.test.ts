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
