/**
 * The official Anthropic SDK's streaming helpers (messages.stream: text events, finalMessage, finalText,
 * tool use round trip) and the Mistral SDK (chat.complete, chat.stream with usage, tools, chat.parse with
 * zod) against the gateway, on one model of each provider family, usage checked against the simulator.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Mistral } from '@mistralai/mistralai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestGateway } from '../helpers/gateway.js';
import { expectAccounted, openWindow } from './accounting.js';
import { FAMILIES, MODELS, startClientGateway } from './helpers.js';

let t: TestGateway;
let anthropic: Anthropic;
let mistral: Mistral;
beforeAll(async () => {
  t = await startClientGateway();
  anthropic = new Anthropic({ apiKey: t.key, baseURL: t.url, maxRetries: 0 });
  mistral = new Mistral({ apiKey: t.key, serverURL: t.url });
});
afterAll(async () => t.close());

describe('Anthropic SDK request id', () => {
  it('_request_id and withResponse carry the gateway request id (request-id header)', async () => {
    const { data, response, request_id } = await anthropic.messages
      .create({ model: MODELS.anthropic, max_tokens: 20, messages: [{ role: 'user', content: 'Say hi' }] })
      .withResponse();
    const id = response.headers.get('x-svc-request-id');
    expect(id).toBeTruthy();
    expect(request_id).toBe(id);
    expect(data.id).toMatch(/^msg_/);
  });
});

describe.each(FAMILIES)('Anthropic SDK streaming helpers on %s', (family) => {
  const model = MODELS[family];

  it('messages.stream: text events, finalMessage and finalText, usage from message_start and message_delta', async () => {
    const w = await openWindow(t);
    const stream = anthropic.messages.stream({ model, max_tokens: 200, messages: [{ role: 'user', content: 'Describe a lighthouse' }] });
    let text = '';
    let startInput = -1;
    stream.on('text', (d) => (text += d));
    stream.on('streamEvent', (e) => {
      if (e.type === 'message_start') startInput = e.message.usage.input_tokens;
    });
    const final = await stream.finalMessage();
    expect(await stream.finalText()).toBe(text);
    expect(final.stop_reason).toBe('end_turn');
    const { sim } = await expectAccounted(t, w, model);
    expect(final.usage.input_tokens).toBe(sim.input);
    expect(final.usage.output_tokens).toBe(sim.output);
    expect(startInput).toBeGreaterThan(0);
    // The upstream's own count when it sends one at the start (Anthropic); the gateway's exact count otherwise.
    if (family === 'anthropic') expect(startInput).toBe(sim.input);
  });

  it('messages.stream with a tool: input_json deltas assemble into the tool input, then the answer', async () => {
    const w = await openWindow(t);
    const tools: Anthropic.Tool[] = [
      { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ];
    const first = await anthropic.messages
      .stream({ model, max_tokens: 200, tools, messages: [{ role: 'user', content: 'Use get_weather for the city of Metz' }] })
      .finalMessage();
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.name).toBe('get_weather');
    expect(typeof (use.input as { city: unknown }).city).toBe('string');
    const second = await anthropic.messages
      .stream({
        model,
        max_tokens: 200,
        tools,
        messages: [
          { role: 'user', content: 'Use get_weather for the city of Metz' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'fog' }] },
        ],
      })
      .finalMessage();
    expect(second.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('fog');
    const { sim, calls } = await expectAccounted(t, w, model);
    expect(calls).toBe(2);
    expect(first.usage.output_tokens + second.usage.output_tokens).toBe(sim.output);
    expect(first.usage.input_tokens + second.usage.input_tokens).toBe(sim.input);
  });

  it('messages.create with output_config.format answers JSON valid against the schema', async () => {
    const w = await openWindow(t);
    const schema = { type: 'object', properties: { color: { type: 'string' }, rgb: { type: 'array', items: { type: 'integer' } } }, required: ['color', 'rgb'] };
    const res = await anthropic.messages.create({
      model,
      max_tokens: 300,
      messages: [{ role: 'user', content: 'Pick a color' }],
      output_config: { format: { type: 'json_schema', schema } },
    } as Anthropic.MessageCreateParamsNonStreaming);
    const text = res.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const parsed = z.object({ color: z.string(), rgb: z.array(z.number().int()) }).parse(JSON.parse(text));
    expect(parsed.rgb.length).toBeGreaterThan(0);
    const { sim } = await expectAccounted(t, w, model);
    expect(res.usage.output_tokens).toBe(sim.output);
  });
});

describe.each(FAMILIES)('Mistral SDK on %s', (family) => {
  const model = MODELS[family];

  it('chat.complete and chat.stream (usage on the last chunk, no usage: null before it)', async () => {
    const w = await openWindow(t);
    const res = await mistral.chat.complete({ model, messages: [{ role: 'user', content: 'Describe a canal' }] });
    expect(typeof res.choices?.[0]?.message?.content).toBe('string');
    const first = await expectAccounted(t, w, model);
    expect(res.usage).toMatchObject({ promptTokens: first.sim.input, completionTokens: first.sim.output });

    const w2 = await openWindow(t);
    let text = '';
    let usage: { promptTokens?: number; completionTokens?: number } | undefined;
    for await (const event of await mistral.chat.stream({ model, messages: [{ role: 'user', content: 'Describe a bridge' }] })) {
      const delta = event.data.choices[0]?.delta.content;
      if (typeof delta === 'string') text += delta;
      if (event.data.usage) usage = event.data.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    const second = await expectAccounted(t, w2, model);
    expect(second.calls).toBe(1);
    // OpenAI-format streams carry usage only when asked (stream_options.include_usage, which the Mistral SDK
    // does not send): no usage chunk and no usage: null (which its schema would reject).
    expect(usage).toBeUndefined();
  });

  it('tool call round trip with tool_choice "any"', async () => {
    const w = await openWindow(t);
    const tools = [{ type: 'function' as const, function: { name: 'get_time', description: 'Time in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const first = await mistral.chat.complete({ model, messages: [{ role: 'user', content: 'What time is it in Oslo?' }], tools, toolChoice: 'any' });
    const call = first.choices?.[0]?.message?.toolCalls?.[0];
    if (!call) throw new Error('no tool call');
    expect(call.function.name).toBe('get_time');
    const args = typeof call.function.arguments === 'string' ? (JSON.parse(call.function.arguments) as { city: unknown }) : call.function.arguments;
    expect(typeof args.city).toBe('string');
    const second = await mistral.chat.complete({
      model,
      tools,
      messages: [
        { role: 'user', content: 'What time is it in Oslo?' },
        { role: 'assistant', content: '', toolCalls: [call] },
        { role: 'tool', toolCallId: call.id!, name: 'get_time', content: 'noon' },
      ],
    });
    expect(second.choices?.[0]?.message?.content).toContain('noon');
    const { sim } = await expectAccounted(t, w, model);
    expect(first.usage.completionTokens! + second.usage.completionTokens!).toBe(sim.output);
  });

  it('chat.parse with a zod schema', async () => {
    const w = await openWindow(t);
    const City = z.object({ name: z.string(), population: z.number().int() });
    const res = await mistral.chat.parse({ model, messages: [{ role: 'user', content: 'Name a city' }], responseFormat: City as never });
    expect(City.parse(res.choices![0]!.message!.parsed)).toBeTruthy();
    const { sim } = await expectAccounted(t, w, model);
    expect(res.usage.promptTokens).toBe(sim.input);
  });
});
