import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/canonical/types.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { responsesFormat } from '../../../src/formats/responses/index.js';
import { ctx, encodeAll, eventsOf, FakeUpstream, response, usage } from './helpers.js';

const toolRes = response({
  content: [
    { type: 'thinking', text: 'Hmm.', signature: 's' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
  ],
  stopReason: 'tool_calls',
  usage: usage({ inputTokens: 100, cacheReadTokens: 50, cacheWriteTokens: 25, outputTokens: 40, reasoningTokens: 12 }),
});

const toolUsage = {
  input_tokens: 175,
  input_tokens_details: { cached_tokens: 50 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 215,
};

/** The response object in its wire key order. */
const resp = (status: string, output: JsonObject[], usage: JsonObject | null, incomplete: JsonObject | null = null): JsonObject => ({
  id: 'resp_req1',
  object: 'response',
  created_at: 1_700_000_000,
  status,
  error: null,
  incomplete_details: incomplete,
  model: 'gw-model',
  output,
  usage,
});

describe('responses encode', () => {
  it('text: one message item with output_text, completed, usage', () => {
    expect(responsesFormat.encodeResponse(response(), ctx())).toStrictEqual(
      resp(
        'completed',
        [{ type: 'message', id: 'msg_req1_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello world', annotations: [] }] }],
        { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
      ),
    );
  });

  it('thinking left out, text then a function_call item; cache and reasoning tokens in usage', () => {
    expect(responsesFormat.encodeResponse(toolRes, ctx())).toStrictEqual(
      resp(
        'completed',
        [
          { type: 'message', id: 'msg_req1_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
          { type: 'function_call', id: 'fc_req1_1', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
        ],
        toolUsage,
      ),
    );
  });

  it('length is incomplete (max_output_tokens), content_filter incomplete, error failed', () => {
    const of = (stopReason: 'length' | 'content_filter' | 'error') => {
      const r = responsesFormat.encodeResponse(response({ stopReason }), ctx());
      return [r.status, r.incomplete_details, r.error, ((r.output as JsonObject[])[0] as JsonObject).status];
    };
    expect(of('length')).toStrictEqual(['incomplete', { reason: 'max_output_tokens' }, null, 'incomplete']);
    expect(of('content_filter')).toStrictEqual(['incomplete', { reason: 'content_filter' }, null, 'incomplete']);
    expect(of('error')).toStrictEqual(['failed', null, { code: 'server_error', message: 'The upstream model ended the answer with an error.' }, 'incomplete']);
  });
});

const e = (type: string, data: JsonObject): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const inProgress = resp('in_progress', [], null);

describe('responses stream encoder', () => {
  it('the whole event family for a text answer, with sequence numbers', () => {
    const msg = (status: string, content: JsonObject[]) => ({ type: 'message', id: 'msg_req1_0', status, role: 'assistant', content });
    const part = (text: string) => ({ type: 'output_text', text, annotations: [] });
    const at = { item_id: 'msg_req1_0', output_index: 0, content_index: 0 };
    expect(encodeAll(responsesFormat.streamEncoder(ctx()), eventsOf(response()))).toBe(
      e('response.created', { sequence_number: 0, response: inProgress }) +
        e('response.in_progress', { sequence_number: 1, response: inProgress }) +
        e('response.output_item.added', { sequence_number: 2, output_index: 0, item: msg('in_progress', []) }) +
        e('response.content_part.added', { sequence_number: 3, ...at, part: part('') }) +
        e('response.output_text.delta', { sequence_number: 4, ...at, delta: 'Hello', logprobs: [] }) +
        e('response.output_text.delta', { sequence_number: 5, ...at, delta: ' world', logprobs: [] }) +
        e('response.output_text.done', { sequence_number: 6, ...at, text: 'Hello world', logprobs: [] }) +
        e('response.content_part.done', { sequence_number: 7, ...at, part: part('Hello world') }) +
        e('response.output_item.done', { sequence_number: 8, output_index: 0, item: msg('completed', [part('Hello world')]) }) +
        e('response.completed', {
          sequence_number: 9,
          response: resp('completed', [msg('completed', [part('Hello world')])], {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 15,
          }),
        }),
    );
  });

  it('function call events; thinking has none', () => {
    const sse = encodeAll(responsesFormat.streamEncoder(ctx()), eventsOf(toolRes));
    const fc = (status: string, args: string) => ({ type: 'function_call', id: 'fc_req1_1', call_id: 'call_1', name: 'weather', arguments: args, status });
    const at = { item_id: 'fc_req1_1', output_index: 1 };
    const tail = sse.slice(sse.indexOf('event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":9'));
    expect(tail).toBe(
      e('response.output_item.added', { sequence_number: 9, output_index: 1, item: fc('in_progress', '') }) +
        e('response.function_call_arguments.delta', { sequence_number: 10, ...at, delta: '{"city":' }) +
        e('response.function_call_arguments.delta', { sequence_number: 11, ...at, delta: '"Paris"}' }) +
        e('response.function_call_arguments.done', { sequence_number: 12, ...at, name: 'weather', arguments: '{"city":"Paris"}' }) +
        e('response.output_item.done', { sequence_number: 13, output_index: 1, item: fc('completed', '{"city":"Paris"}') }) +
        e('response.completed', { sequence_number: 14, response: responsesFormat.encodeResponse(toolRes, ctx()) }),
    );
    expect(sse).not.toContain('Hmm.');
  });

  it('a cut-short answer ends with response.incomplete, its items incomplete', () => {
    const sse = encodeAll(responsesFormat.streamEncoder(ctx()), eventsOf(response({ stopReason: 'length' })));
    expect(sse.endsWith(e('response.incomplete', { sequence_number: 9, response: responsesFormat.encodeResponse(response({ stopReason: 'length' }), ctx()) }))).toBe(true);
  });

  it('created and in_progress go out on start; an error is the responses error event', () => {
    const enc = responsesFormat.streamEncoder(ctx());
    expect(enc.push({ type: 'start', id: 'u', upstreamModel: 'u' })).toBe(
      e('response.created', { sequence_number: 0, response: inProgress }) + e('response.in_progress', { sequence_number: 1, response: inProgress }),
    );
    expect(enc.error(new GatewayError('upstream_timeout'))).toBe(
      e('error', { sequence_number: 2, code: 'service_unavailable', message: 'The upstream provider timed out.', param: null }),
    );
  });
});

describe('responses through the official openai SDK', () => {
  let up: FakeUpstream;
  let client: OpenAI;
  beforeAll(async () => {
    up = await FakeUpstream.start();
    client = new OpenAI({ baseURL: up.url, apiKey: 'x', maxRetries: 0 });
  });
  afterAll(() => up.close());

  it('parses the JSON answer (output_text convenience included)', async () => {
    up.json(responsesFormat.encodeResponse(toolRes, ctx()));
    const got = await client.responses.create({ model: 'gw-model', input: 'x' });
    expect(got.output_text).toBe('Checking.');
    expect(got.output).toStrictEqual(responsesFormat.encodeResponse(toolRes, ctx()).output);
    expect(got.usage).toStrictEqual(toolUsage);
  });

  it('create({stream: true}) yields every event in order', async () => {
    up.sse(encodeAll(responsesFormat.streamEncoder(ctx()), eventsOf(toolRes)));
    const types: string[] = [];
    for await (const ev of await client.responses.create({ model: 'gw-model', input: 'x', stream: true })) types.push(`${ev.sequence_number}:${ev.type}`);
    expect(types).toEqual([
      '0:response.created',
      '1:response.in_progress',
      '2:response.output_item.added',
      '3:response.content_part.added',
      '4:response.output_text.delta',
      '5:response.output_text.delta',
      '6:response.output_text.done',
      '7:response.content_part.done',
      '8:response.output_item.done',
      '9:response.output_item.added',
      '10:response.function_call_arguments.delta',
      '11:response.function_call_arguments.delta',
      '12:response.function_call_arguments.done',
      '13:response.output_item.done',
      '14:response.completed',
    ]);
  });

  it('stream() accumulates the same response as the JSON answer', async () => {
    up.sse(encodeAll(responsesFormat.streamEncoder(ctx()), eventsOf(toolRes)));
    const stream = client.responses.stream({ model: 'gw-model', input: 'x' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (ev) => deltas.push(ev.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(['Chec', 'king.']);
    expect(final.output_text).toBe('Checking.');
    // The SDK adds its parse helpers (parsed, parsed_arguments) to what it accumulated.
    expect(final.output).toMatchObject(responsesFormat.encodeResponse(toolRes, ctx()).output as JsonObject[]);
    expect(final.output).toHaveLength(2);
    expect(final.usage).toStrictEqual(toolUsage);
    expect(final.status).toBe('completed');
  });

  it('stream() surfaces an error event as an APIError', async () => {
    const enc = responsesFormat.streamEncoder(ctx());
    up.sse(enc.push({ type: 'start', id: 'u', upstreamModel: 'u' }) + enc.error(new GatewayError('upstream_error')));
    await expect(client.responses.stream({ model: 'gw-model', input: 'x' }).finalResponse()).rejects.toThrow(/upstream provider failed/);
  });
});
