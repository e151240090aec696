/**
 * The OpenAI chat-completions simulator, checked with the official `openai` SDK: if the SDK cannot parse
 * what the simulator sends, or maps its errors to the wrong class, the simulator is wrong.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { countChatPromptTokens } from '../../src/sim/openai/index.js';
import { words } from '../../src/sim/text.js';

let sim: Simulator;
let client: OpenAI;

const MODEL = 'gpt-4o-mini';
const ASK: ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say something about the sea.' },
];
const WEATHER_TOOL: ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function streamText(params: Omit<ChatCompletionCreateParamsNonStreaming, 'stream'>) {
  const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  return { chunks, text };
}

describe('text answers', () => {
  it('non-stream: a chat.completion with deterministic text and exact usage', async () => {
    const { data: done, response } = await client.chat.completions.create({ model: MODEL, messages: ASK }).withResponse();
    const again = await client.chat.completions.create({ model: MODEL, messages: ASK });
    const choice = done.choices[0];
    expect(done.object).toBe('chat.completion');
    expect(done.id).toMatch(/^chatcmpl-/);
    expect(done.model).toBe(MODEL);
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.role).toBe('assistant');
    expect(choice?.message.content).toMatch(/^Echo: /);
    expect(again.choices[0]?.message.content).toBe(choice?.message.content);
    expect(done.usage?.completion_tokens).toBe(words(choice?.message.content ?? '').length);
    expect(done.usage?.prompt_tokens).toBe(countChatPromptTokens(ASK));
    expect(done.usage?.total_tokens).toBe((done.usage?.prompt_tokens ?? 0) + (done.usage?.completion_tokens ?? 0));
    expect(done.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    expect(done.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('stream with include_usage: every chunk parses, text equals the non-stream text, usage comes last', async () => {
    const whole = await client.chat.completions.create({ model: MODEL, messages: ASK });
    const { chunks, text } = await streamText({ model: MODEL, messages: ASK });
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]?.id)).toBe(true);
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage).toEqual(whole.usage);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('max_tokens cuts with finish_reason length and exact completion_tokens, stream and not', async () => {
    const full = words((await client.chat.completions.create({ model: MODEL, messages: ASK })).choices[0]?.message.content ?? '');
    const cut = await client.chat.completions.create({ model: MODEL, messages: ASK, max_tokens: 3 });
    expect(cut.choices[0]?.finish_reason).toBe('length');
    expect(cut.usage?.completion_tokens).toBe(3);
    expect(cut.choices[0]?.message.content).toBe(full.slice(0, 3).join(' '));
    const streamed = await streamText({ model: MODEL, messages: ASK, max_completion_tokens: 4 });
    expect(streamed.text).toBe(full.slice(0, 4).join(' '));
    expect(streamed.chunks.at(-2)?.choices[0]?.finish_reason).toBe('length');
    expect(streamed.chunks.at(-1)?.usage?.completion_tokens).toBe(4);
  });

  it('honours stop sequences (the stop text is not returned, finish_reason stop)', async () => {
    const full = words((await client.chat.completions.create({ model: MODEL, messages: ASK })).choices[0]?.message.content ?? '');
    const stopped = await client.chat.completions.create({ model: MODEL, messages: ASK, stop: [` ${full[3] ?? ''}`] });
    expect(stopped.choices[0]?.message.content).toBe(full.slice(0, 3).join(' '));
    expect(stopped.choices[0]?.finish_reason).toBe('stop');
    expect(stopped.usage?.completion_tokens).toBe(3);
  });

  it('reports x-sim-cached-tokens and x-sim-reasoning-tokens in usage details', async () => {
    const done = await client.chat.completions.create(
      { model: MODEL, messages: ASK },
      { headers: { 'x-sim-cached-tokens': '5', 'x-sim-reasoning-tokens': '7', 'x-sim-output-tokens': '4' } },
    );
    expect(done.usage?.prompt_tokens_details?.cached_tokens).toBe(5);
    expect(done.usage?.completion_tokens_details?.reasoning_tokens).toBe(7);
    expect(done.usage?.completion_tokens).toBe(4 + 7);
    expect(words(done.choices[0]?.message.content ?? '')).toHaveLength(4);
  });
});

describe('tool calls', () => {
  const ask: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

  it('round trip, non-stream: tool call, then a text answer from the tool result', async () => {
    const first = await client.chat.completions.create({ model: MODEL, messages: ask, tools: [WEATHER_TOOL] });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.choices[0]?.message.content).toBeNull();
    expect(call?.id).toMatch(/^call_/);
    expect(call?.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const second = await client.chat.completions.create({
      model: MODEL,
      tools: [WEATHER_TOOL],
      messages: [...ask, first.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: 'sunny, 21 C' }],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('Echo: the tool returned sunny, 21 C.');
  });

  it('round trip, stream: the SDK stream helper assembles the streamed tool call', async () => {
    const runner = client.chat.completions.stream({ model: MODEL, messages: ask, tools: [WEATHER_TOOL] });
    const first = await runner.finalChatCompletion();
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const toolMessages: ChatCompletionMessageParam[] = [
      ...ask,
      { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
      { role: 'tool', tool_call_id: call!.id, content: 'rainy' },
    ];
    const { text } = await streamText({ model: MODEL, tools: [WEATHER_TOOL], messages: toolMessages });
    expect(text).toBe('Echo: the tool returned rainy.');
  });

  it('tool_choice forcing a function calls it whatever the prompt; "none" never does', async () => {
    const other: ChatCompletionTool = { type: 'function', function: { name: 'lookup' } };
    const forced = await client.chat.completions.create({
      model: MODEL,
      messages: ASK,
      tools: [WEATHER_TOOL, other],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
    const call = forced.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('lookup');
    const none = await client.chat.completions.create({ model: MODEL, messages: ask, tools: [WEATHER_TOOL], tool_choice: 'none' });
    expect(none.choices[0]?.finish_reason).toBe('stop');
  });
});

describe('faults map to the SDK error classes', () => {
  const cases = [
    ['429', RateLimitError, 429, 'rate_limit_exceeded'],
    ['500', InternalServerError, 500, null],
    ['503', InternalServerError, 503, null],
    ['529', InternalServerError, 529, null],
    ['400', BadRequestError, 400, 'context_length_exceeded'],
    ['401', AuthenticationError, 401, 'invalid_api_key'],
  ] as const;

  it.each(cases)('x-sim-fault %s -> %o', async (fault, errorClass, status, code) => {
    const error: unknown = await client.chat.completions
      .create({ model: MODEL, messages: ASK }, { headers: { 'x-sim-fault': fault } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    const apiError = error as InstanceType<typeof errorClass>;
    expect(apiError.status).toBe(status);
    expect(apiError.code ?? null).toBe(code);
    expect(typeof apiError.type).toBe('string');
    if (fault === '429') expect(apiError.headers?.get('retry-after')).toBe('1');
  });

  it('reset destroys the socket before any response: APIConnectionError', async () => {
    const error = await client.chat.completions
      .create({ model: MODEL, messages: ASK }, { headers: { 'x-sim-fault': 'reset' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('hang never answers: the client times out', async () => {
    const error = await client.chat.completions
      .create({ model: MODEL, messages: ASK }, { headers: { 'x-sim-fault': 'hang' }, timeout: 150 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('midstream-reset delivers a few chunks, then the stream breaks', async () => {
    const stream = await client.chat.completions.create(
      { model: MODEL, messages: ASK, stream: true },
      { headers: { 'x-sim-fault': 'midstream-reset' } },
    );
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(4);
  });

  it('midstream-reset on a non-stream request cuts the body after the headers', async () => {
    const error = await client.chat.completions
      .create({ model: MODEL, messages: ASK }, { headers: { 'x-sim-fault': 'midstream-reset' } })
      .catch((e: unknown) => e);
    // The status line was 200, so the SDK surfaces fetch's own body error, not an APIError.
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/terminated/);
  });
});

describe('validation like the real API', () => {
  async function post(body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { error: Record<string, unknown> } };
  }

  it('400 with OpenAI error bodies for missing model, missing messages, bad JSON and unknown keys', async () => {
    expect(await post({ messages: ASK })).toEqual({
      status: 400,
      body: { error: { message: 'you must provide a model parameter', type: 'invalid_request_error', param: null, code: null } },
    });
    const noMessages = await post({ model: MODEL });
    expect(noMessages.body.error).toMatchObject({ param: 'messages', code: 'missing_required_parameter' });
    expect((await post('{oops')).body.error.message).toMatch(/could not parse the JSON body/);
    const control = await post({ model: MODEL, messages: ASK, svc_tags: ['a'] });
    expect(control.body.error.message).toBe('Unrecognized request argument supplied: svc_tags');
    const streamOptions = await post({ model: MODEL, messages: ASK, stream_options: { include_usage: true } });
    expect(streamOptions.body.error.param).toBe('stream_options');
  });

  it('401 invalid_api_key when the endpoint has an apiKey and the bearer differs', async () => {
    sim.configure('/', { apiKey: 'sk-right' });
    const error = await client.chat.completions.create({ model: MODEL, messages: ASK }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
    const right = new OpenAI({ apiKey: 'sk-right', baseURL: `${sim.url}/v1`, maxRetries: 0 });
    await expect(right.chat.completions.create({ model: MODEL, messages: ASK })).resolves.toBeDefined();
    expect((await post({ model: MODEL, messages: ASK })).status).toBe(401);
  });
});

describe('moderations', () => {
  it('answers the official SDK with one result per input, flagging what the text asks for', async () => {
    const r = await client.moderations.create({ model: 'omni-moderation-latest', input: ['a calm sentence', 'sim-flag:violence here'] });
    expect(r.model).toBe('omni-moderation-latest');
    expect(r.results).toHaveLength(2);
    expect(r.results[0]!.flagged).toBe(false);
    expect(r.results[1]!.flagged).toBe(true);
    expect(r.results[1]!.categories.violence).toBe(true);
    expect(r.results[1]!.category_scores.violence).toBeGreaterThan(0.9);
    expect(r.results[1]!.categories.hate).toBe(false);
    const one = await client.moderations.create({ input: 'plain text' });
    expect(one.results).toHaveLength(1);
  });

  it('refuses a bad input with the SDK\'s BadRequestError', async () => {
    await expect(client.moderations.create({ input: [] as string[] })).rejects.toBeInstanceOf(BadRequestError);
  });
});
