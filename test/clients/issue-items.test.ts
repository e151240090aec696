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
    [MODELS.mistral, { n: 2 }, 'n'],
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

describe('item 1: responses state (item_reference, previous_response_id, store)', () => {
  interface Resp {
    id: string;
    output: { type: string; id: string; call_id?: string; content?: { text: string }[] }[];
  }
  const create = async (body: Record<string, unknown>, key = t.key): Promise<Response> =>
    post(t, '/v1/responses', body, { authorization: `Bearer ${key}` });
  const upstreamMessages = (): unknown => {
    const b = Object.values(t.sim.stats().endpoints)[0]!.lastBody as Record<string, unknown>;
    return b.messages ?? b.contents;
  };
  for (const family of FAMILIES) {
    it(`resolves item_reference to an earlier answer (${family}, stream and not)`, async () => {
      for (const stream of [false, true]) {
        const first = await create({ model: MODELS[family], input: 'Tell me about Paris', stream });
        expect(first.status).toBe(200);
        const r1 = stream
          ? (JSON.parse(parseSse(await first.text()).find((e) => e.event === 'response.completed')!.data) as { response: Resp }).response
          : ((await first.json()) as Resp);
        const answer = r1.output[0]!;
        t.sim.reset();
        const second = await create({
          model: MODELS[family],
          input: [{ role: 'user', content: 'Tell me about Paris' }, { type: 'item_reference', id: answer.id }, { role: 'user', content: 'And Lyon?' }],
        });
        expect(second.status, await second.clone().text()).toBe(200);
        expect(JSON.stringify(upstreamMessages())).toContain(JSON.stringify(answer.content![0]!.text).slice(1, -1));
      }
    });
  }
  it('previous_response_id carries the earlier input and output, function calls included', async () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const r1 = (await (await create({ model: MODELS.openai, input: 'What is the weather in Paris?', tools, tool_choice: 'required' })).json()) as Resp;
    const call = r1.output.find((o) => o.type === 'function_call')!;
    expect(call).toBeDefined();
    t.sim.reset();
    const res = await create({
      model: MODELS.openai,
      previous_response_id: r1.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
      tools,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const sent = JSON.stringify(upstreamMessages());
    expect(sent).toContain('What is the weather in Paris?');
    expect(sent).toContain(call.call_id);
    expect(sent).toContain('sunny');
  });
  it('unknown, foreign and store:false ids are 404 not_found before any upstream call or hold', async () => {
    const { expectRefusal, snapshot } = await import('../helpers/refusal.js');
    const unstored = (await (await create({ model: MODELS.openai, input: 'Hi', store: false })).json()) as Resp;
    await t.addOrg('org-other', 10);
    const other = await t.addKey({ orgId: 'org-other' });
    const foreign = (await (await create({ model: MODELS.openai, input: 'Hi' }, other.value)).json()) as Resp;
    const cases: [Record<string, unknown>, string][] = [
      [{ previous_response_id: 'resp_nope' }, 'previous_response_id'],
      [{ previous_response_id: unstored.id }, 'previous_response_id'],
      [{ previous_response_id: foreign.id }, 'previous_response_id'],
      [{ input: [{ type: 'item_reference', id: 'msg_nope_0' }] }, 'input[0].id'],
      [{ input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id: foreign.output[0]!.id }] }, 'input[1].id'],
      [{ input: [{ type: 'item_reference', id: unstored.output[0]!.id }] }, 'input[0].id'],
    ];
    for (const [extra, param] of cases) {
      const before = await snapshot(t);
      const err = await expectRefusal(t, before, await create({ model: MODELS.openai, input: 'Hi', ...extra }), 404, 'not_found');
      expect((err.error as { param?: string }).param).toBe(param);
    }
  });
});

describe('item 8: the simulator answers structured output, parallel tool calls, n and logprobs', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 3 },
      age: { type: 'integer', minimum: 18, maximum: 99 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
      address: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/address' }] },
      when: { type: 'string', format: 'date-time' },
    },
    required: ['name', 'age', 'tags', 'address', 'when'],
    additionalProperties: false,
    $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
  };
  const toolSchema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'], additionalProperties: false };
  const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: toolSchema } }));
  type Chat = { choices: { message: { content: string | null; tool_calls?: { function: { name: string; arguments: string } }[] }; logprobs: unknown }[] };
  let validate: (schema: object, value: unknown) => boolean;
  beforeAll(async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false });
    // ajv-formats is CommonJS: its default export arrives as `default.default` under ESM interop in tsc's view.
    const formats = (await import('ajv-formats')) as unknown as { default: (a: typeof ajv) => void };
    formats.default(ajv);
    validate = (s, v) => ajv.validate(s, v);
  });
  for (const family of FAMILIES) {
    for (const stream of [false, true]) {
      it(`JSON valid against response_format's schema and tool schemas, parallel tool calls (${family}${stream ? ', stream' : ''})`, async () => {
        const ask = async (body: Record<string, unknown>): Promise<Chat> => {
          const res = await post(t, '/v1/chat/completions', { model: MODELS[family], stream, ...body });
          expect(res.status).toBe(200);
          if (!stream) return (await res.json()) as Chat;
          // Reassemble the stream as a client would.
          let content = '';
          const calls: { function: { name: string; arguments: string } }[] = [];
          for (const e of parseSse(await res.text())) {
            if (e.event === ':' || e.data === '[DONE]') continue;
            const d = (JSON.parse(e.data) as { choices: { delta: { content?: string; tool_calls?: { index: number; function: { name?: string; arguments?: string } }[] } }[] }).choices[0]?.delta;
            if (d?.content) content += d.content;
            for (const tc of d?.tool_calls ?? []) {
              calls[tc.index] ??= { function: { name: '', arguments: '' } };
              calls[tc.index]!.function.name += tc.function.name ?? '';
              calls[tc.index]!.function.arguments += tc.function.arguments ?? '';
            }
          }
          return { choices: [{ message: { content, tool_calls: calls }, logprobs: null }] };
        };
        const structured = await ask({
          messages: [{ role: 'user', content: 'Describe a person' }],
          response_format: { type: 'json_schema', json_schema: { name: 'person', schema, strict: true } },
        });
        const value: unknown = JSON.parse(structured.choices[0]!.message.content!);
        expect(validate(schema, value), JSON.stringify(value)).toBe(true);
        const jsonMode = await ask({ messages: [{ role: 'user', content: 'Describe a person as JSON' }], response_format: { type: 'json_object' } });
        expect(typeof JSON.parse(jsonMode.choices[0]!.message.content!)).toBe('object');
        const parallel = await ask({ messages: [{ role: 'user', content: 'Call get_weather and get_time for Paris' }], tools });
        const calls = parallel.choices[0]!.message.tool_calls!;
        expect(calls.map((c) => c.function.name)).toEqual(['get_weather', 'get_time']);
        for (const c of calls) expect(validate(toolSchema, JSON.parse(c.function.arguments)), c.function.arguments).toBe(true);
        const single = await ask({ messages: [{ role: 'user', content: 'Call get_weather and get_time for Paris' }], tools, parallel_tool_calls: false });
        if (family !== 'anthropic' && family !== 'gemini') expect(single.choices[0]!.message.tool_calls!.length).toBe(1);
      });
    }
  }
  // Mistral's sim answers n choices too, but the gateway reaches Mistral through the canonical model (one
  // choice), so n > 1 on a Mistral model is refused (item 7).
  for (const family of ['openai'] as const) {
    it(`n choices on ${family}, usage summing every choice`, async () => {
      const res = await post(t, '/v1/chat/completions', { model: MODELS[family], messages: [{ role: 'user', content: 'Hi' }], n: 3 });
      const body = (await res.json()) as Chat & { usage: { completion_tokens: number } };
      expect(res.status).toBe(200);
      expect(body.choices).toHaveLength(3);
      expect(new Set(body.choices.map((c) => c.message.content)).size).toBeGreaterThan(1);
      const words = body.choices.reduce((n, c) => n + c.message.content!.split(' ').length, 0);
      expect(body.usage.completion_tokens).toBe(words);
      expect(Number(res.headers.get('x-svc-output-tokens'))).toBe(words);
    });
  }
  it('logprobs where the provider gives them (OpenAI), one entry per token with top alternatives', async () => {
    const res = await post(t, '/v1/chat/completions', { model: MODELS.openai, messages: [{ role: 'user', content: 'Hi' }], logprobs: true, top_logprobs: 2 });
    const body = (await res.json()) as { choices: { message: { content: string }; logprobs: { content: { token: string; logprob: number; top_logprobs: unknown[] }[] } }[] };
    const lp = body.choices[0]!.logprobs.content;
    expect(lp.map((x) => x.token).join('')).toBe(body.choices[0]!.message.content);
    for (const x of lp) {
      expect(x.logprob).toBeLessThan(0);
      expect(x.top_logprobs).toHaveLength(2);
    }
  });
});

describe('GET /v1/responses/{id} (responses.retrieve)', () => {
  it('returns a stored response to its organization only; 404 otherwise, $0', async () => {
    const OpenAI = (await import('openai')).default;
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const created = await client.responses.create({ model: MODELS.anthropic, input: 'Hello there' });
    const got = await client.responses.retrieve(created.id);
    expect(got.id).toBe(created.id);
    expect(got.output_text).toBe(created.output_text);
    expect(got.usage).toEqual(created.usage);
    const { expectRefusal, snapshot } = await import('../helpers/refusal.js');
    await t.addOrg('org-third', 5);
    const other = await t.addKey({ orgId: 'org-third' });
    const get = (id: string, key = t.key) => fetch(`${t.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${key}` } });
    for (const [id, key] of [[created.id, other.value], ['resp_unknown', t.key]] as const) {
      const before = await snapshot(t);
      await expectRefusal(t, before, await get(id, key), 404, 'not_found');
    }
    const unauth = await get(created.id, 'sk-svc-wrong');
    expect(unauth.status).toBe(401);
  });
});
