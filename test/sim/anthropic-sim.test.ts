/**
 * The Anthropic Messages simulator, checked with the official `@anthropic-ai/sdk`: if the SDK cannot parse
 * what the simulator sends, or maps its errors to the wrong class, the simulator is wrong.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  OverloadedError,
  RateLimitError,
  ServiceUnavailableError,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { words } from '../../src/sim/text.js';

let sim: Simulator;
let client: Anthropic;

const MODEL = 'claude-sonnet-4-20250514';
const ASK: MessageParam[] = [{ role: 'user', content: 'Say something about the sea.' }];
const BASE: MessageCreateParamsNonStreaming = { model: MODEL, max_tokens: 1024, system: 'You are terse.', messages: ASK };
const WEATHER: Tool = { name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { location: { type: 'string' } } } };
const WEATHER_ASK: MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: sim.url, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function textOf(message: Anthropic.Message): string {
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

describe('text answers', () => {
  it('create: a Message with deterministic text, usage counted like count_tokens, request-id', async () => {
    const { data: message, response } = await client.messages.create(BASE).withResponse();
    expect(message.type).toBe('message');
    expect(message.id).toMatch(/^msg_/);
    expect(message.model).toBe(MODEL);
    expect(message.stop_reason).toBe('end_turn');
    expect(textOf(message)).toMatch(/^Echo: /);
    expect(message.usage.output_tokens).toBe(words(textOf(message)).length);
    const { system, messages, model } = BASE;
    const counted = await client.messages.countTokens({ model, system: system!, messages });
    expect(message.usage.input_tokens).toBe(counted.input_tokens);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
  });

  it('stream: the SDK helper assembles the same Message; the raw events follow the real order', async () => {
    const whole = await client.messages.create(BASE);
    const final = await client.messages.stream(BASE).finalMessage();
    expect(final.content).toEqual(whole.content);
    expect(final.usage).toEqual(whole.usage);
    expect(final.stop_reason).toBe('end_turn');
    const raw = await client.messages.create({ ...BASE, stream: true });
    const types: string[] = [];
    for await (const event of raw) types.push(event.type);
    const deltas = types.filter((t) => t === 'content_block_delta').length;
    expect(deltas).toBe(whole.usage.output_tokens);
    expect(types).toEqual(['message_start', 'content_block_start', ...Array<string>(deltas).fill('content_block_delta'), 'content_block_stop', 'message_delta', 'message_stop']);
  });

  it('max_tokens cuts with stop_reason max_tokens; a stop sequence reports which one matched', async () => {
    const full = words(textOf(await client.messages.create(BASE)));
    const cut = await client.messages.create({ ...BASE, max_tokens: 3 });
    expect(cut.stop_reason).toBe('max_tokens');
    expect(textOf(cut)).toBe(full.slice(0, 3).join(' '));
    expect(cut.usage.output_tokens).toBe(3);
    const stop = ` ${full[2] ?? ''}`;
    const stopped = await client.messages.stream({ ...BASE, stop_sequences: ['zzz', stop] }).finalMessage();
    expect(stopped.stop_reason).toBe('stop_sequence');
    expect(stopped.stop_sequence).toBe(stop);
    expect(textOf(stopped)).toBe(full.slice(0, 2).join(' '));
  });

  it('cache headers become cache_read / cache_creation tokens, taken out of input_tokens, stream and not', async () => {
    const plain = await client.messages.create(BASE);
    const headers = { 'x-sim-cache-read-tokens': '5', 'x-sim-cache-write-tokens': '3' };
    const cached = await client.messages.create(BASE, { headers });
    expect(cached.usage.cache_read_input_tokens).toBe(5);
    expect(cached.usage.cache_creation_input_tokens).toBe(3);
    expect(cached.usage.input_tokens).toBe(plain.usage.input_tokens - 8);
    const streamed = await client.messages.stream(BASE, { headers }).finalMessage();
    expect(streamed.usage).toEqual(cached.usage);
  });
});

describe('tool use', () => {
  it('round trip: tool_use block, then a text answer from the tool_result', async () => {
    const first = await client.messages.create({ ...BASE, messages: WEATHER_ASK, tools: [WEATHER] });
    const call = first.content.find((b) => b.type === 'tool_use');
    expect(first.stop_reason).toBe('tool_use');
    expect(call?.type === 'tool_use' && { name: call.name, input: call.input }).toEqual({ name: 'get_weather', input: { location: 'Paris' } });
    expect(call?.id).toMatch(/^toolu_/);
    const second = await client.messages.create({
      ...BASE,
      tools: [WEATHER],
      messages: [...WEATHER_ASK, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: 'sunny, 21 C' }] }],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(textOf(second)).toBe('Echo: the tool returned sunny, 21 C.');
  });

  it('stream: input_json_delta pieces parse into the tool input', async () => {
    const final = await client.messages.stream({ ...BASE, messages: WEATHER_ASK, tools: [WEATHER] }).finalMessage();
    const call = final.content.find((b) => b.type === 'tool_use');
    expect(call?.type === 'tool_use' && call.input).toEqual({ location: 'Paris' });
    expect(final.stop_reason).toBe('tool_use');
  });

  it('tool_choice tool forces the named tool; none never calls one', async () => {
    const lookup: Tool = { name: 'lookup', input_schema: { type: 'object' } };
    const forced = await client.messages.create({ ...BASE, tools: [WEATHER, lookup], tool_choice: { type: 'tool', name: 'lookup' } });
    expect(forced.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'lookup' });
    const none = await client.messages.create({ ...BASE, messages: WEATHER_ASK, tools: [WEATHER], tool_choice: { type: 'none' } });
    expect(none.stop_reason).toBe('end_turn');
  });
});

describe('extended thinking', () => {
  const thinking = { type: 'enabled', budget_tokens: 1024 } as const;

  it('a signed thinking block precedes the answer; its words count as output tokens, stream and not', async () => {
    const message = await client.messages.create({ ...BASE, max_tokens: 2048, thinking });
    const [first, second] = message.content;
    expect(first?.type).toBe('thinking');
    expect(first?.type === 'thinking' && first.signature.length).toBeGreaterThan(10);
    expect(second?.type).toBe('text');
    const thoughtWords = first?.type === 'thinking' ? words(first.thinking).length : 0;
    expect(message.usage.output_tokens).toBe(thoughtWords + words(textOf(message)).length);
    const final = await client.messages.stream({ ...BASE, max_tokens: 2048, thinking }).finalMessage();
    expect(final.content).toEqual(message.content);
  });

  it('the real API rules: budget below max_tokens, at least 1024, no forced tool use, temperature 1 only', async () => {
    const attempts = [
      { ...BASE, max_tokens: 1024, thinking },
      { ...BASE, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 512 } as const },
      { ...BASE, max_tokens: 4096, thinking, tools: [WEATHER], tool_choice: { type: 'any' } as const },
      { ...BASE, max_tokens: 4096, thinking, temperature: 0.5 },
    ];
    for (const params of attempts) await expect(client.messages.create(params)).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('faults map to the SDK error classes', () => {
  const cases = [
    ['429', RateLimitError, 429, 'rate_limit_error'],
    ['500', InternalServerError, 500, 'api_error'],
    ['503', ServiceUnavailableError, 503, 'api_error'],
    ['529', OverloadedError, 529, 'overloaded_error'],
    ['400', BadRequestError, 400, 'invalid_request_error'],
    ['401', AuthenticationError, 401, 'authentication_error'],
  ] as const;

  it.each(cases)('x-sim-fault %s -> %o', async (fault, errorClass, status, type) => {
    const error: unknown = await client.messages.create(BASE, { headers: { 'x-sim-fault': fault } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    const apiError = error as InstanceType<typeof errorClass>;
    expect(apiError.status).toBe(status);
    expect(apiError.type).toBe(type);
    expect(apiError.requestID).toMatch(/^req_/);
    if (status >= 500) expect(error).toBeInstanceOf(InternalServerError);
    if (fault === '429') expect(apiError.headers?.get('retry-after')).toBe('1');
  });

  it('reset: APIConnectionError; hang: APIConnectionTimeoutError', async () => {
    await expect(client.messages.create(BASE, { headers: { 'x-sim-fault': 'reset' } })).rejects.toBeInstanceOf(APIConnectionError);
    await expect(client.messages.create(BASE, { headers: { 'x-sim-fault': 'hang' }, timeout: 150 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('midstream-reset: a few events arrive, then the stream breaks', async () => {
    const stream = await client.messages.create({ ...BASE, stream: true }, { headers: { 'x-sim-fault': 'midstream-reset' } });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(seen[0]).toBe('message_start');
    expect(seen.length).toBeLessThan(4);
  });
});

describe('validation and auth like the real API', () => {
  async function post(path: string, body: unknown, headers: Record<string, string> = { 'anthropic-version': '2023-06-01' }) {
    const res = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { type: string; error: { type: string; message: string } } };
  }

  it('400 invalid_request_error bodies: missing max_tokens, unknown keys, temperature range, missing anthropic-version', async () => {
    expect(await post('/v1/messages', { model: MODEL, messages: ASK })).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' }, request_id: expect.stringMatching(/^req_/) },
    });
    expect((await post('/v1/messages', { ...BASE, svc_tags: ['a'] })).body.error.message).toBe('svc_tags: Extra inputs are not permitted');
    expect((await post('/v1/messages', { ...BASE, temperature: 1.5 })).status).toBe(400);
    expect((await post('/v1/messages/count_tokens', { ...BASE })).body.error.message).toBe('max_tokens: Extra inputs are not permitted');
    expect((await post('/v1/messages', BASE, {})).body.error.message).toBe('anthropic-version: header is required');
  });

  it('x-api-key is checked when the endpoint has a key', async () => {
    sim.configure('/', { apiKey: 'sk-ant-right' });
    await expect(client.messages.create(BASE)).rejects.toBeInstanceOf(AuthenticationError);
    const right = new Anthropic({ apiKey: 'sk-ant-right', baseURL: sim.url, maxRetries: 0 });
    await expect(right.messages.create(BASE)).resolves.toMatchObject({ type: 'message' });
    await expect(right.messages.countTokens({ model: MODEL, messages: ASK })).resolves.toMatchObject({ input_tokens: expect.any(Number) });
    const missing = await post('/v1/messages', BASE);
    expect(missing).toMatchObject({ status: 401, body: { error: { type: 'authentication_error', message: 'x-api-key header is required' } } });
    // The SDK v1 sends its key as a bearer token; API-version-2023 clients (and the gateway) use x-api-key.
    const viaHeader = await post('/v1/messages', BASE, { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-right' });
    expect(viaHeader.status).toBe(200);
    const wrong = await post('/v1/messages', BASE, { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-wrong' });
    expect(wrong).toMatchObject({ status: 401, body: { error: { message: 'invalid x-api-key' } } });
  });

  it('routes under a prefix and counts per-prefix stats', async () => {
    const prefixed = new Anthropic({ apiKey: 'k', baseURL: `${sim.url}/claude-eu`, maxRetries: 0 });
    await prefixed.messages.create(BASE);
    expect(sim.stats().endpoints['/claude-eu']).toMatchObject({ requests: 1, byModel: { [MODEL]: 1 }, lastPath: '/claude-eu/v1/messages' });
  });
});
