/**
 * The Azure OpenAI dialect of the simulator, checked with the official `openai` SDK's `AzureOpenAI`
 * client (deployment path, api-version query, api-key header, Azure's error bodies and stream quirks).
 */
import { AuthenticationError, AzureOpenAI, BadRequestError, InternalServerError, NotFoundError, RateLimitError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { words } from '../../src/sim/text.js';

let sim: Simulator;
const DEPLOYMENT = 'prod-gpt4o';
const API_VERSION = '2024-10-21';
const messages = [{ role: 'user' as const, content: 'Say something about the sea.' }];
const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

const azure = (apiKey = 'azure-key-0123456789abcdef0123456789ab', prefix = '/az'): AzureOpenAI =>
  new AzureOpenAI({ endpoint: `${sim.url}${prefix}`, apiKey, apiVersion: API_VERSION, deployment: DEPLOYMENT, maxRetries: 0 });

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Azure OpenAI chat completions', () => {
  it('non-stream: the SDK parses the completion; deployment path, api-version and api-key on the wire', async () => {
    sim.configure('/az', { apiKey: 'azure-key-0123456789abcdef0123456789ab' });
    const done = await azure().chat.completions.create({ model: 'gpt-4o', messages });
    expect(done.choices[0]?.message.content).toMatch(/^Echo: /);
    expect(done.choices[0]?.finish_reason).toBe('stop');
    expect(done.usage?.completion_tokens).toBe(words(done.choices[0]?.message.content ?? '').length);
    expect((done as unknown as { prompt_filter_results: unknown[] }).prompt_filter_results).toHaveLength(1);
    const stats = sim.stats().endpoints['/az'];
    expect(stats?.lastPath).toBe(`/az/openai/deployments/${DEPLOYMENT}/chat/completions`);
    expect(stats?.lastHeaders['api-key']).toBe('azure-key-0123456789abcdef0123456789ab');
    expect(stats?.byModel[DEPLOYMENT]).toBe(1);
  });

  it('stream: the first chunk is the prompt-filter chunk with no choices; text and usage match the non-stream answer', async () => {
    const whole = await azure().chat.completions.create({ model: 'gpt-4o', messages });
    const stream = await azure().chat.completions.create({ model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true } });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]?.choices).toEqual([]);
    expect(chunks[0]?.id).toBe('');
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0]?.message.content);
    expect(chunks.at(-1)?.usage).toEqual(whole.usage);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('tools: "weather" gives a tool call, streamed in argument pieces', async () => {
    const ask = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
    const done = await azure().chat.completions.create({ model: 'gpt-4o', messages: ask, tools: [WEATHER] });
    const call = done.choices[0]?.message.tool_calls?.[0];
    expect(done.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' ? call.function : null).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const stream = await azure().chat.completions.create({ model: 'gpt-4o', messages: ask, tools: [WEATHER], stream: true });
    let args = '';
    for await (const c of stream) args += c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    expect(args).toBe('{"location":"Paris"}');
  });
});

describe('Azure OpenAI errors', () => {
  it('a wrong api-key is 401 with Azure\'s "Access denied" body', async () => {
    sim.configure('/az', { apiKey: 'right-key' });
    const err: unknown = await azure('wrong-key').chat.completions.create({ model: 'gpt-4o', messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).message).toContain('Access denied due to invalid subscription key');
  });

  it('no api-version is 404 "Resource not found" (as Azure answers it)', async () => {
    const res = await fetch(`${sim.url}/az/openai/deployments/${DEPLOYMENT}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  for (const [fault, cls] of [
    ['429', RateLimitError],
    ['500', InternalServerError],
    ['503', InternalServerError],
    ['400', BadRequestError],
  ] as const) {
    it(`fault ${fault} -> ${cls.name}`, async () => {
      sim.configure('/az', { fault, faultCount: 1, retryAfterS: 6 });
      const err: unknown = await azure().chat.completions.create({ model: 'gpt-4o', messages }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(cls);
      if (fault === '429') {
        expect((err as RateLimitError).message).toContain('Please retry after 6 seconds');
        expect((err as RateLimitError).headers?.get('retry-after')).toBe('6');
      }
    });
  }

  it('an unknown body field is refused like OpenAI does (400), a wrong path is 404', async () => {
    const err: unknown = await azure()
      .chat.completions.create({ model: 'gpt-4o', messages, svc_tag: 'x' } as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    const client = new AzureOpenAI({ endpoint: `${sim.url}/az/nowhere`, apiKey: 'k', apiVersion: API_VERSION, maxRetries: 0 });
    await expect(client.completions.create({ model: 'x', prompt: 'hi' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
