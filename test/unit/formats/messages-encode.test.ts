import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalResponse, JsonObject } from '../../../src/canonical/types.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { toolInput } from '../../../src/formats/messages/encode.js';
import { messagesFormat } from '../../../src/formats/messages/index.js';
import { ctx, encodeAll, eventsOf, FakeUpstream, response, usage } from './helpers.js';

const toolRes = response({
  content: [
    { type: 'thinking', text: 'Use the tool.', signature: 'sig==' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris","days":[1,2]}' },
  ],
  stopReason: 'tool_calls',
  usage: usage({ inputTokens: 100, cacheReadTokens: 50, cacheWriteTokens: 25, outputTokens: 40, reasoningTokens: 12 }),
});

const toolUsage = { input_tokens: 100, cache_creation_input_tokens: 25, cache_read_input_tokens: 50, output_tokens: 40 };

describe('messages encode', () => {
  it('text, end_turn, usage with input tokens excluding cache', () => {
    expect(messagesFormat.encodeResponse(response(), ctx())).toStrictEqual({
      id: 'msg_req1',
      type: 'message',
      role: 'assistant',
      model: 'gw-model',
      content: [{ type: 'text', text: 'Hello world' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
    });
  });

  it('thinking, text and tool_use blocks; tool_use stop reason; cache usage', () => {
    expect(messagesFormat.encodeResponse(toolRes, ctx())).toStrictEqual({
      id: 'msg_req1',
      type: 'message',
      role: 'assistant',
      model: 'gw-model',
      content: [
        { type: 'thinking', thinking: 'Use the tool.', signature: 'sig==' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris', days: [1, 2] } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: toolUsage,
    });
  });

  it('stop reasons map; the stop sequence is reported only with stop_sequence; redacted thinking', () => {
    const of = (r: Partial<CanonicalResponse>) => {
      const m = messagesFormat.encodeResponse(response(r), ctx());
      return [m.stop_reason, m.stop_sequence];
    };
    expect(of({ stopReason: 'stop_sequence', stopSequence: 'END' })).toEqual(['stop_sequence', 'END']);
    expect(of({ stopReason: 'stop', stopSequence: 'END' })).toEqual(['end_turn', null]);
    expect(of({ stopReason: 'length' })).toEqual(['max_tokens', null]);
    expect(of({ stopReason: 'content_filter' })).toEqual(['refusal', null]);
    expect(of({ stopReason: 'error' })).toEqual(['end_turn', null]);
    const redacted = messagesFormat.encodeResponse(response({ content: [{ type: 'thinking', text: '', redacted: 'opaque' }] }), ctx());
    expect(redacted.content).toStrictEqual([{ type: 'redacted_thinking', data: 'opaque' }]);
  });

  it('tool arguments that are not a JSON object become {}', () => {
    expect([toolInput(''), toolInput('{"a":'), toolInput('[1]'), toolInput('3'), toolInput(' {"a":1} ')]).toStrictEqual([{}, {}, {}, {}, { a: 1 }]);
  });
});

const e = (name: string, data: JsonObject): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const start = (u: JsonObject) => ({
  type: 'message_start',
  message: { id: 'msg_req1', type: 'message', role: 'assistant', model: 'gw-model', content: [], stop_reason: null, stop_sequence: null, usage: u },
});
const zero = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };

describe('messages stream encoder', () => {
  it('the whole event family for thinking, text and a tool call', () => {
    const d = (index: number, delta: JsonObject) => e('content_block_delta', { type: 'content_block_delta', index, delta });
    expect(encodeAll(messagesFormat.streamEncoder(ctx()), eventsOf(toolRes))).toBe(
      e('message_start', start(zero)) +
        e('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
        d(0, { type: 'thinking_delta', thinking: 'Use th' }) +
        d(0, { type: 'thinking_delta', thinking: 'e tool.' }) +
        d(0, { type: 'signature_delta', signature: 'sig==' }) +
        e('content_block_stop', { type: 'content_block_stop', index: 0 }) +
        e('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }) +
        d(1, { type: 'text_delta', text: 'Chec' }) +
        d(1, { type: 'text_delta', text: 'king.' }) +
        e('content_block_stop', { type: 'content_block_stop', index: 1 }) +
        e('content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } }) +
        d(2, { type: 'input_json_delta', partial_json: '{"city":"Paris' }) +
        d(2, { type: 'input_json_delta', partial_json: '","days":[1,2]}' }) +
        e('content_block_stop', { type: 'content_block_stop', index: 2 }) +
        e('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: toolUsage }) +
        e('message_stop', { type: 'message_stop' }),
    );
  });

  it('usage known before start goes into message_start; block indexes are renumbered from 0', () => {
    const enc = messagesFormat.streamEncoder(ctx());
    expect(enc.push({ type: 'usage', usage: usage({ inputTokens: 7, outputTokens: 0 }) })).toBe('');
    expect(enc.push({ type: 'start', id: 'u', upstreamModel: 'u' })).toBe(
      e('message_start', start({ input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 })),
    );
    expect(enc.push({ type: 'block_start', index: 3, block: { type: 'text' } })).toBe(
      e('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    );
    enc.push({ type: 'finish', stopReason: 'stop_sequence', stopSequence: '###' });
    expect(enc.end()).toContain('"delta":{"stop_reason":"stop_sequence","stop_sequence":"###"}');
  });

  it('an error is an error event holding the contract error object', () => {
    const message = 'The upstream provider timed out.';
    const error = { message, type: 'gateway_error', code: 'service_unavailable', details: { error_code: 'service_unavailable' } };
    expect(messagesFormat.streamEncoder(ctx()).error(new GatewayError('upstream_timeout'))).toBe(e('error', { type: 'error', error, message }));
  });
});

describe('messages through the official Anthropic SDK', () => {
  let up: FakeUpstream;
  let client: Anthropic;
  const params = { model: 'gw-model', max_tokens: 100, messages: [{ role: 'user' as const, content: 'x' }] };
  beforeAll(async () => {
    up = await FakeUpstream.start();
    client = new Anthropic({ baseURL: up.url, apiKey: 'x', maxRetries: 0 });
  });
  afterAll(() => up.close());

  it('parses the JSON answer', async () => {
    const body = messagesFormat.encodeResponse(toolRes, ctx());
    up.json(body);
    expect(await client.messages.create(params)).toStrictEqual(body);
  });

  it('stream() + finalMessage() rebuild text, thinking, tool_use input and usage', async () => {
    up.sse(encodeAll(messagesFormat.streamEncoder(ctx()), eventsOf(toolRes)));
    const stream = client.messages.stream(params);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const final = await stream.finalMessage();
    expect(texts).toEqual(['Chec', 'king.']);
    expect(final.content).toStrictEqual(messagesFormat.encodeResponse(toolRes, ctx()).content);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toMatchObject(toolUsage);
  });

  it('create({stream: true}) yields the raw events; an error event rejects', async () => {
    up.sse(encodeAll(messagesFormat.streamEncoder(ctx()), eventsOf(response())));
    const types: string[] = [];
    for await (const ev of await client.messages.create({ ...params, stream: true })) types.push(ev.type);
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);

    const enc = messagesFormat.streamEncoder(ctx());
    up.sse(enc.push({ type: 'start', id: 'u', upstreamModel: 'u' }) + enc.error(new GatewayError('upstream_error')));
    await expect(client.messages.stream(params).finalMessage()).rejects.toThrow(/^The upstream provider failed\.$/); // readable, not JSON
  });
});
