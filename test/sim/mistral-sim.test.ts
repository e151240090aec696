/**
 * The Mistral dialect of the simulator, checked with the official `@mistralai/mistralai` SDK (serverURL
 * pointed at `{sim}{prefix}/mistral`): chat.complete, chat.stream, tools, and Mistral's error bodies.
 */
import { Mistral } from '@mistralai/mistralai';
import type { Tool } from '@mistralai/mistralai/models/components';
import { HTTPValidationError, MistralError } from '@mistralai/mistralai/models/errors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { words } from '../../src/sim/text.js';

let sim: Simulator;
const MODEL = 'mistral-large-latest';
const messages = [{ role: 'user' as const, content: 'Say something about the sea.' }];
const WEATHER: Tool & { type: 'function' } = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

const mistral = (apiKey = 'mistral-key', prefix = '/ms'): Mistral => new Mistral({ apiKey, serverURL: `${sim.url}${prefix}/mistral` });

async function streamed(client: Mistral, req: Parameters<Mistral['chat']['stream']>[0]) {
  const chunks = [];
  for await (const ev of await client.chat.stream(req)) chunks.push(ev.data);
  return chunks;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Mistral chat', () => {
  it('chat.complete: text, stop, usage; Mistral-only fields accepted; marker path and prefix', async () => {
    sim.configure('/ms', { apiKey: 'mistral-key' });
    const res = await mistral().chat.complete({ model: MODEL, messages, safePrompt: true, randomSeed: 7 });
    const text = res.choices[0]?.message?.content;
    expect(text).toMatch(/^Echo: /);
    expect(res.choices[0]?.finishReason).toBe('stop');
    expect(res.usage.completionTokens).toBe(words(String(text)).length);
    expect(res.usage.totalTokens).toBe((res.usage.promptTokens ?? 0) + (res.usage.completionTokens ?? 0));
    const stats = sim.stats().endpoints['/ms'];
    expect(stats?.lastPath).toBe('/ms/mistral/v1/chat/completions');
    expect(stats?.lastHeaders.authorization).toBe('Bearer mistral-key');
    expect(stats?.lastBody).toMatchObject({ safe_prompt: true, random_seed: 7 });
  });

  it('chat.stream: deltas join to the whole text; the last chunk has finish_reason and usage together', async () => {
    const whole = await mistral().chat.complete({ model: MODEL, messages });
    const chunks = await streamed(mistral(), { model: MODEL, messages });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0]?.message?.content);
    const last = chunks.at(-1);
    expect(last?.choices[0]?.finishReason).toBe('stop');
    expect(last?.usage).toEqual(whole.usage);
    expect(chunks.slice(0, -1).every((c) => c.usage === undefined)).toBe(true);
  });

  it('tools: "weather" -> a whole tool call with a 9-character id (stream: one chunk), toolChoice "any" forces it', async () => {
    const ask = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
    const res = await mistral().chat.complete({ model: MODEL, messages: ask, tools: [WEATHER] });
    const call = res.choices[0]?.message?.toolCalls?.[0];
    expect(res.choices[0]?.finishReason).toBe('tool_calls');
    expect(call?.id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(call?.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris"}' });
    const chunks = await streamed(mistral(), { model: MODEL, messages: ask, tools: [WEATHER] });
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.toolCalls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.id).toBe(call?.id);
    expect(chunks.at(-1)?.choices[0]?.finishReason).toBe('tool_calls');
    const forced = await mistral().chat.complete({ model: MODEL, messages, tools: [WEATHER], toolChoice: 'any' });
    expect(forced.choices[0]?.message?.toolCalls?.[0]?.function.name).toBe('get_weather');
  });

  it('a tool result round trip answers with the result', async () => {
    const res = await mistral().chat.complete({
      model: MODEL,
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'abcDEF123', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
        { role: 'tool', toolCallId: 'abcDEF123', name: 'get_weather', content: 'sunny, 21 C' },
      ],
      tools: [WEATHER],
    });
    expect(res.choices[0]?.message?.content).toContain('sunny, 21 C');
  });
});

describe('Mistral errors', () => {
  it('a wrong key is 401 {"detail":"Unauthorized"}', async () => {
    sim.configure('/ms', { apiKey: 'right' });
    const err: unknown = await mistral('wrong').chat.complete({ model: MODEL, messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MistralError);
    expect((err as MistralError).statusCode).toBe(401);
    expect(JSON.parse((err as MistralError).body)).toEqual({ detail: 'Unauthorized' });
  });

  it('an OpenAI-only field is 422 extra_forbidden (HTTPValidationError); a foreign tool-call id is 400', async () => {
    const res = await fetch(`${sim.url}/ms/mistral/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages, max_completion_tokens: 5 }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: { detail: { type: string; loc: string[] }[] } };
    expect(body.message.detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'max_completion_tokens'] });
    const err: unknown = await mistral()
      .chat.complete({
        model: MODEL,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_abc123xyz', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', toolCallId: 'call_abc123xyz', content: 'sunny' },
        ],
      })
      .catch((e: unknown) => e);
    expect((err as MistralError).statusCode).toBe(400);
    expect((err as MistralError).body).toContain('must be a-z, A-Z, 0-9, with a length of 9');
  });

  it('the SDK maps a 422 (top_p out of range) to HTTPValidationError', async () => {
    const err: unknown = await mistral().chat.complete({ model: MODEL, messages, topP: 1.5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HTTPValidationError);
    expect((err as HTTPValidationError).statusCode).toBe(422);
  });

  for (const [fault, status, text] of [
    ['429', 429, 'rate limit'],
    ['500', 500, 'Internal server error'],
    ['503', 503, 'capacity exceeded'],
    ['400', 400, 'maximum context length'],
  ] as const) {
    it(`fault ${fault} -> MistralError ${status} (complete and stream)`, async () => {
      sim.configure('/ms', { fault, faultCount: 2 });
      const err: unknown = await mistral().chat.complete({ model: MODEL, messages }).catch((e: unknown) => e);
      expect((err as MistralError).statusCode).toBe(status);
      expect((err as MistralError).body).toContain(text);
      const s: unknown = await streamed(mistral(), { model: MODEL, messages }).catch((e: unknown) => e);
      expect((s as MistralError).statusCode).toBe(status);
    });
  }
});
