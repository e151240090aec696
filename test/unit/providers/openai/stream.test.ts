/** OpenAIStreamDecoder on recorded chat.completion.chunk streams, split at every byte position. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { OPENAI_PARAMS } from '../../../../src/providers/openai/params.js';
import { OpenAIStreamDecoder } from '../../../../src/providers/openai/stream.js';
import { decode, decodeEverySplit, fixture } from './helpers.js';

const make = () => new OpenAIStreamDecoder(OPENAI_PARAMS);

describe('OpenAIStreamDecoder', () => {
  it('stream-text-usage.sse: one text block (multi-byte text survives any split), usage, then finish at [DONE]', () => {
    expect(decodeEverySplit(make, fixture('openai', 'stream-text-usage.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-Str1', upstreamModel: 'gpt-4o-mini-2024-07-18' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Café ' },
      { type: 'text_delta', index: 0, text: 'crème 🌊' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 176, outputTokens: 4, cacheReadTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it('stream-parallel-tool-calls.sse: text, then one block per tool index with its argument pieces', () => {
    expect(decodeEverySplit(make, fixture('openai', 'stream-parallel-tool-calls.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-Par2', upstreamModel: 'gpt-4o-2024-08-06' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Checking both.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'call_Aa1', name: 'get_weather' } },
      { type: 'tool_args_delta', index: 1, json: '{"loc' },
      { type: 'tool_args_delta', index: 1, json: 'ation": "Paris"}' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'call_Bb2', name: 'get_time' } },
      { type: 'tool_args_delta', index: 2, json: '{"tz": "Asia/Tokyo"}' },
      { type: 'block_stop', index: 2 },
      { type: 'usage', usage: { inputTokens: 90, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
    ]);
  });

  it('stream-cut-midway.sse: a stream that ends before finish_reason throws a 502 at end()', () => {
    const d = make();
    const events = d.push(fixture('openai', 'stream-cut-midway.sse'));
    expect(events.map((e) => e.type)).toEqual(['start', 'block_start', 'text_delta']);
    expect(() => d.end()).toThrow(GatewayError);
  });

  it('stream-error-event.sse: an error event mid-stream throws, without the key it carried', () => {
    let caught: unknown;
    try {
      decode(make, fixture('openai', 'stream-error-event.sse'));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect((caught as GatewayError).status).toBe(503);
    expect((caught as GatewayError).message).not.toContain('sk-proj-abcdefghijklmnop1234');
  });

  it('CRLF framing and comments decode the same as LF framing', () => {
    const lf = fixture('openai', 'stream-text-usage.sse');
    const crlf = Buffer.from(`: keep-alive\r\n\r\n${lf.toString('utf8').replace(/\n/g, '\r\n')}`);
    expect(decodeEverySplit(make, crlf)).toEqual(decode(make, lf));
  });

  it('events after [DONE] are ignored; end() after [DONE] adds nothing', () => {
    const bytes = Buffer.concat([fixture('openai', 'stream-text-usage.sse'), Buffer.from('data: {"choices":[{"index":0,"delta":{"content":"late"}}]}\n\n')]);
    const events = decode(make, bytes);
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'stop', stopSequence: null });
    expect(events.some((e) => e.type === 'text_delta' && e.text === 'late')).toBe(false);
  });
});
