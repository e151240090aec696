/**
 * One regression per item of the issue "The clients applications really use", at the wire level (the
 * library-level checks live beside this file). Each of these failed before the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../helpers/gateway.js';
import { FAMILIES, MODELS, parseSse, post, startClientGateway, usageCommentOf } from './helpers.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startClientGateway();
});
afterAll(async () => t.close());

describe('item 6: x-request-id', () => {
  it('carries the same value as x-svc-request-id on answers and refusals', async () => {
    const ok = await post(t, '/v1/chat/completions', { model: MODELS.openai, messages: [{ role: 'user', content: 'Hi' }] });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe(ok.headers.get('x-svc-request-id'));
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await post(t, '/v1/chat/completions', { model: MODELS.openai, messages: [] });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-request-id')).toBe(refused.headers.get('x-svc-request-id'));
    const unauth = await post(t, '/v1/messages', {}, { authorization: 'Bearer sk-svc-nope' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('x-request-id')).toBe(unauth.headers.get('x-svc-request-id'));
  });
});

describe('item 4: no "usage": null in OpenAI-format streams the client did not ask usage of', () => {
  for (const family of FAMILIES) {
    it(`chat stream on ${family}`, async () => {
      const res = await post(t, '/v1/chat/completions', {
        model: MODELS[family],
        messages: [{ role: 'user', content: 'Say something' }],
        stream: true,
      });
      expect(res.status).toBe(200);
      const events = parseSse(await res.text()).filter((e) => e.event !== ':' && e.data !== '[DONE]');
      expect(events.length).toBeGreaterThan(1);
      for (const e of events) expect(Object.keys(JSON.parse(e.data) as object)).not.toContain('usage');
    });
  }
  it('keeps usage:null chunks and the usage chunk when the client asked for them', async () => {
    const res = await post(t, '/v1/chat/completions', {
      model: MODELS.openai,
      messages: [{ role: 'user', content: 'Say something' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const events = parseSse(await res.text()).filter((e) => e.event !== ':' && e.data !== '[DONE]');
    const last = JSON.parse(events.at(-1)!.data) as { usage: { prompt_tokens: number } };
    expect(last.usage.prompt_tokens).toBeGreaterThan(0);
  });
});

describe('item 5: tool_choice "any" means required', () => {
  const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }];
  for (const family of FAMILIES) {
    it(`forces a tool call on ${family}`, async () => {
      const res = await post(t, '/v1/chat/completions', {
        model: MODELS[family],
        messages: [{ role: 'user', content: 'Tell me a story' }],
        tools,
        tool_choice: 'any',
      });
      const body = (await res.json()) as { choices: { message: { tool_calls?: { function: { name: string } }[] }; finish_reason: string }[] };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.choices[0]!.message.tool_calls![0]!.function.name).toBe('lookup');
      expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    });
  }
  it('sends "required" (not "any") to an OpenAI upstream', async () => {
    t.sim.reset();
    await post(t, '/v1/chat/completions', { model: MODELS.openai, messages: [{ role: 'user', content: 'x' }], tools, tool_choice: 'any' });
    const ep = Object.values(t.sim.stats().endpoints)[0]!;
    expect((ep.lastBody as { tool_choice: unknown }).tool_choice).toBe('required');
  });
});

describe('item 3: messages streams report the input tokens in message_start', () => {
  for (const family of FAMILIES) {
    it(`message_start.usage.input_tokens is the billed count on ${family}`, async () => {
      const res = await post(t, '/v1/messages', {
        model: MODELS[family],
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'Count the tokens of this prompt please' }],
      });
      expect(res.status).toBe(200);
      const events = parseSse(await res.text());
      const start = JSON.parse(events.find((e) => e.event === 'message_start')!.data) as { message: { usage: { input_tokens: number } } };
      const billed = usageCommentOf(events)!;
      expect(start.message.usage.input_tokens).toBeGreaterThan(0);
      // The upstream's own count where it reports one at the start; the gateway's exact count otherwise.
      if (family === 'anthropic') expect(start.message.usage.input_tokens).toBe(billed.input_tokens);
      else expect(Math.abs(start.message.usage.input_tokens - Number(billed.input_tokens))).toBeLessThanOrEqual(8);
      const delta = JSON.parse(events.find((e) => e.event === 'message_delta')!.data) as { usage: { input_tokens: number } };
      expect(delta.usage.input_tokens).toBe(billed.input_tokens);
    });
  }
});

describe('item 2: /v1/messages output_config.format reaches the upstream', () => {
  const schema = { type: 'object', properties: { zq_city: { type: 'string' } }, required: ['zq_city'], additionalProperties: false };
  const body = (model: string, extra: Record<string, unknown>) => ({
    model,
    max_tokens: 200,
    messages: [{ role: 'user', content: 'Name a city' }],
    ...extra,
  });
  const lastBody = (): string => JSON.stringify(Object.values(t.sim.stats().endpoints)[0]!.lastBody);
  for (const family of FAMILIES) {
    it(`maps the schema for ${family} (and the beta's output_format alike)`, async () => {
      for (const extra of [{ output_config: { format: { type: 'json_schema', schema } } }, { output_format: { type: 'json_schema', schema } }]) {
        t.sim.reset();
        const res = await post(t, '/v1/messages', body(MODELS[family], extra));
        expect(res.status, await res.clone().text()).toBe(200);
        // The schema (as a response format, responseJsonSchema, or the JSON instruction) reached the upstream.
        expect(lastBody()).toContain('zq_city');
        if (family === 'openai' || family === 'mistral') expect(lastBody()).toContain('"json_schema"');
        if (family === 'gemini') expect(lastBody()).toContain('responseJsonSchema');
      }
    });
  }
  it('refuses what it cannot honour, naming the field, before any upstream call or hold', async () => {
    const { expectRefusal, snapshot } = await import('../helpers/refusal.js');
    for (const [extra, param] of [
      [{ output_config: { effort: 'low' } }, 'output_config.effort'],
      [{ output_config: { format: { type: 'xml' } } }, 'output_config.format.type'],
      [{ output_config: { format: { type: 'json_schema' } } }, 'output_config.format.schema'],
    ] as const) {
      const before = await snapshot(t);
      const res = await post(t, '/v1/messages', body(MODELS.anthropic, extra));
      const err = await expectRefusal(t, before, res, 400, 'invalid_request');
      expect(err.error.message).toContain(param);
    }
  });
});

describe('item 7: logprobs and n > 1 are served or refused, never dropped', () => {
  const ask = (model: string, extra: Record<string, unknown>, path = '/v1/chat/completions') =>
    post(t, path, path === '/v1/completions' ? { model, prompt: 'Hi', ...extra } : { model, messages: [{ role: 'user', content: 'Hi' }], ...extra });
  const cases: [string, Record<string, unknown>, string, string?][] = [
    [MODELS.anthropic, { logprobs: true }, 'logprobs'],
    [MODELS.gemini, { logprobs: true, top_logprobs: 2 }, 'logprobs'],
    [MODELS.mistral, { logprobs: true }, 'logprobs'],
    [MODELS.anthropic, { n: 2 }, 'n'],
    [MODELS.gemini, { n: 3 }, 'n'],
    [MODELS.openai, { logprobs: 2 }, 'logprobs', '/v1/completions'],
    [MODELS.openai, { n: 2 }, 'n', '/v1/completions'],
  ];
  for (const [model, extra, param, path] of cases) {
    it(`${path ?? 'chat'} ${JSON.stringify(extra)} on ${model}: 400 naming the model, no upstream call, no credit moved`, async () => {
      const { expectRefusal, snapshot } = await import('../helpers/refusal.js');
      const before = await snapshot(t);
      const err = await expectRefusal(t, before, await ask(model, extra, path), 400, 'invalid_request');
      expect(err.error.message).toContain(model);
      expect(err.error.message).toContain(param);
    });
  }
});
