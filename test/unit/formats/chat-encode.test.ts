import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalResponse, CanonicalStreamEvent, JsonObject } from '../../../src/canonical/types.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { encodeChatChoices } from '../../../src/formats/chat-completions/encode.js';
import { chatFormat } from '../../../src/formats/chat-completions/index.js';
import { ctx, encodeAll, eventsOf, FakeUpstream, response, usage } from './helpers.js';

const toolRes = response({
  content: [
    { type: 'thinking', text: 'Two cities.', signature: 'sig' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
    { type: 'tool_call', id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
  ],
  stopReason: 'tool_calls',
  usage: usage({ inputTokens: 100, cacheReadTokens: 50, cacheWriteTokens: 25, outputTokens: 40, reasoningTokens: 12 }),
});

const encodeCases: { name: string; res: CanonicalResponse; want: JsonObject }[] = [
  {
    name: 'text, stop',
    res: response(),
    want: {
      id: 'chatcmpl-req1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gw-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello world', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    },
  },
  {
    name: 'thinking dropped, text and two tool calls, cache and reasoning usage',
    res: toolRes,
    want: {
      id: 'chatcmpl-req1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gw-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            refusal: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 175,
        completion_tokens: 40,
        total_tokens: 215,
        prompt_tokens_details: { cached_tokens: 50 },
        completion_tokens_details: { reasoning_tokens: 12 },
      },
    },
  },
];

describe('chat encode', () => {
  for (const c of encodeCases) {
    it(c.name, () => expect(chatFormat.encodeResponse(c.res, ctx())).toStrictEqual(c.want));
  }

  it('tool calls without text give content null; finish reasons map', () => {
    const only = response({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }], stopReason: 'tool_calls' });
    const choice = (chatFormat.encodeResponse(only, ctx()).choices as JsonObject[])[0]!;
    expect(choice.message).toStrictEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    const reason = (stopReason: CanonicalResponse['stopReason']) =>
      (chatFormat.encodeResponse(response({ stopReason }), ctx()).choices as JsonObject[])[0]!.finish_reason;
    expect(['stop', 'stop_sequence', 'length', 'tool_calls', 'content_filter', 'error'].map((r) => reason(r as CanonicalResponse['stopReason']))).toEqual([
      'stop',
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'stop',
    ]);
    expect((chatFormat.encodeResponse(response({ content: [] }), ctx()).choices as JsonObject[])[0]!.message).toStrictEqual({
      role: 'assistant',
      content: '',
      refusal: null,
    });
  });

  it('several responses become the choices of one answer with summed usage', () => {
    const out = encodeChatChoices([response(), response({ content: [{ type: 'text', text: 'Bye' }], stopReason: 'length' })], ctx());
    expect(out.choices).toStrictEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello world', refusal: null }, logprobs: null, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'Bye', refusal: null }, logprobs: null, finish_reason: 'length' },
    ]);
    expect(out.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
  });
});

const H = 'data: {"id":"chatcmpl-req1","object":"chat.completion.chunk","created":1700000000,"model":"gw-model","choices":';

describe('chat stream encoder', () => {
  it('text: role first, content deltas, finish chunk, [DONE]; no usage chunk unless asked', () => {
    const sse = encodeAll(chatFormat.streamEncoder(ctx()), eventsOf(response()));
    expect(sse).toBe(
      `${H}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n` +
        `${H}[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}]}\n\n` +
        `${H}[{"index":0,"delta":{"content":" world"},"logprobs":null,"finish_reason":null}]}\n\n` +
        `${H}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('tool calls numbered from 0 apart from text, usage chunk with choices [] when asked', () => {
    const sse = encodeAll(chatFormat.streamEncoder(ctx({ streamUsage: true })), eventsOf(toolRes));
    const T = ',"usage":null}\n\n';
    expect(sse).toBe(
      `${H}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"content":"Chec"},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"content":"king."},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\\"city\\""}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":":\\"Rome\\"}"}}]},"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]${T}` +
        `${H}[],"usage":{"prompt_tokens":175,"completion_tokens":40,"total_tokens":215,"prompt_tokens_details":{"cached_tokens":50},"completion_tokens_details":{"reasoning_tokens":12}}}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('the role chunk is sent on start, before any content (first byte early)', () => {
    const enc = chatFormat.streamEncoder(ctx());
    expect(enc.push({ type: 'start', id: 'x', upstreamModel: 'u' })).toContain('"role":"assistant"');
    expect(enc.push({ type: 'block_start', index: 0, block: { type: 'text' } })).toBe('');
  });

  it('an error after the start is the contract error object, without [DONE]', () => {
    const enc = chatFormat.streamEncoder(ctx());
    enc.push({ type: 'start', id: 'x', upstreamModel: 'u' });
    expect(enc.error(new GatewayError('upstream_error'))).toBe(
      'data: {"error":{"message":"The upstream provider failed.","type":"gateway_error","code":"service_unavailable"}}\n\n',
    );
  });
});

describe('chat through the official openai SDK', () => {
  let up: FakeUpstream;
  let client: OpenAI;
  beforeAll(async () => {
    up = await FakeUpstream.start();
    client = new OpenAI({ baseURL: up.url, apiKey: 'x', maxRetries: 0 });
  });
  afterAll(() => up.close());

  it('parses the JSON answer', async () => {
    const body = chatFormat.encodeResponse(toolRes, ctx());
    up.json(body);
    const got = await client.chat.completions.create({ model: 'gw-model', messages: [{ role: 'user', content: 'x' }] });
    expect(got).toStrictEqual(body);
  });

  it('stream() accumulates the same message, tool calls and usage as the JSON answer', async () => {
    up.sse(encodeAll(chatFormat.streamEncoder(ctx({ streamUsage: true })), eventsOf(toolRes)));
    const stream = client.chat.completions.stream({ model: 'gw-model', messages: [{ role: 'user', content: 'x' }], stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    const json = chatFormat.encodeResponse(toolRes, ctx());
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Checking.');
    expect(choice.message.tool_calls).toStrictEqual((json.choices as { message: { tool_calls: unknown } }[])[0]!.message.tool_calls);
    expect(final.usage).toStrictEqual(json.usage);
  });

  it('create({stream: true}) yields every chunk; an error event raises an APIError', async () => {
    const events: CanonicalStreamEvent[] = eventsOf(response());
    up.sse(encodeAll(chatFormat.streamEncoder(ctx()), events));
    const chunks: string[] = [];
    for await (const c of await client.chat.completions.create({ model: 'gw-model', messages: [{ role: 'user', content: 'x' }], stream: true })) {
      chunks.push(c.choices[0]?.delta.content ?? `<${c.choices[0]?.finish_reason ?? ''}>`);
    }
    expect(chunks.join('|')).toBe('|Hello| world|<stop>');

    const enc = chatFormat.streamEncoder(ctx());
    up.sse(enc.push(events[0]!) + enc.error(new GatewayError('upstream_timeout')));
    const it2 = await client.chat.completions.create({ model: 'gw-model', messages: [{ role: 'user', content: 'x' }], stream: true });
    await expect(async () => {
      for await (const _ of it2) void _;
    }).rejects.toThrow(/timed out/);
  });
});
