/**
 * The openai SDK's higher-level helpers against the gateway (simulator upstreams), on one model of each
 * provider family: chat.completions.stream + finalChatCompletion, parse with zod, runTools, responses.stream,
 * responses.parse, withResponse (request_id). Every case checks usage and cost against the simulator.
 */
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestGateway } from '../helpers/gateway.js';
import { expectAccounted, openWindow } from './accounting.js';
import { FAMILIES, MODELS, startClientGateway } from './helpers.js';

let t: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  t = await startClientGateway();
  client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
});
afterAll(async () => t.close());

const Person = z.object({ name: z.string(), age: z.number().int(), hobbies: z.array(z.string()) });

describe.each(FAMILIES)('openai SDK helpers on %s', (family) => {
  const model = MODELS[family];

  it('chat.completions.stream -> finalChatCompletion, with usage', async () => {
    const w = await openWindow(t);
    const stream = client.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'Write two sentences about rivers' }],
      stream_options: { include_usage: true },
    });
    let deltas = '';
    stream.on('content', (d) => (deltas += d));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe(deltas);
    expect(deltas.length).toBeGreaterThan(0);
    const { sim } = await expectAccounted(t, w, model);
    expect(final.usage).toMatchObject({ prompt_tokens: sim.input, completion_tokens: sim.output });
  });

  it('chat.completions.parse with a zod response format', async () => {
    const w = await openWindow(t);
    const res = await client.chat.completions.parse({
      model,
      messages: [{ role: 'user', content: 'Invent a person' }],
      response_format: zodResponseFormat(Person, 'person'),
    });
    const parsed = res.choices[0]!.message.parsed;
    expect(Person.parse(parsed)).toEqual(parsed);
    const { sim } = await expectAccounted(t, w, model);
    expect(res.usage).toMatchObject({ prompt_tokens: sim.input, completion_tokens: sim.output });
  });

  it('chat.completions.runTools with a zod function: the tool runs and the model answers its result', async () => {
    const w = await openWindow(t);
    const seen: unknown[] = [];
    const runner = client.chat.completions.runTools({
      model,
      messages: [{ role: 'user', content: 'Use get_weather for the city of Lyon' }],
      tools: [
        zodFunction({
          name: 'get_weather',
          parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']) }),
          function: (args: { city: string; unit: 'c' | 'f' }) => {
            seen.push(args);
            return `sunny, 21${args.unit}`;
          },
        }),
      ],
    });
    const answer = await runner.finalContent();
    expect(seen).toHaveLength(1);
    expect(answer).toContain('sunny');
    const { sim, calls } = await expectAccounted(t, w, model);
    expect(calls).toBe(2);
    expect(await runner.totalUsage()).toMatchObject({ prompt_tokens: sim.input, completion_tokens: sim.output });
  });

  it('responses.stream -> finalResponse, with usage', async () => {
    const w = await openWindow(t);
    const stream = client.responses.stream({ model, input: 'Write two sentences about mountains' });
    let deltas = '';
    stream.on('response.output_text.delta', (e) => (deltas += e.delta));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(deltas);
    const { sim } = await expectAccounted(t, w, model);
    expect(final.usage).toMatchObject({ input_tokens: sim.input, output_tokens: sim.output });
  });

  it('responses.parse with a zod text format, then a second turn by previous_response_id', async () => {
    const w = await openWindow(t);
    const res = await client.responses.parse({ model, input: 'Invent a person', text: { format: zodTextFormat(Person, 'person') } });
    expect(Person.parse(res.output_parsed)).toEqual(res.output_parsed);
    const { sim } = await expectAccounted(t, w, model);
    expect(res.usage).toMatchObject({ input_tokens: sim.input, output_tokens: sim.output });
    const next = await client.responses.create({ model, previous_response_id: res.id, input: 'And another one?' });
    expect(next.status).toBe('completed');
    // The upstream saw the first turn (question and structured answer) before the new one.
    const sent = JSON.stringify(Object.values(t.sim.stats().endpoints).map((e) => e.lastBody));
    expect(sent).toContain('Invent a person');
    expect(sent).toContain(JSON.stringify(res.output_text).slice(1, 12));
  });

  it('withResponse exposes the gateway headers and request_id (x-request-id)', async () => {
    const w = await openWindow(t);
    const { response, request_id } = await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
    expect(request_id).toBe(response.headers.get('x-svc-request-id'));
    const { sim, entries } = await expectAccounted(t, w, model);
    expect(Number(response.headers.get('x-svc-input-tokens'))).toBe(sim.input);
    expect(Number(response.headers.get('x-svc-output-tokens'))).toBe(sim.output);
    expect(entries[0]!.requestId).toBe(request_id);
  });
});
