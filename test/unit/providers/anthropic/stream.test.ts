/**
 * Anthropic SSE streams (recorded bodies by scenario) -> canonical events. Every fixture is decoded whole,
 * split at every byte position (UTF-8 characters and CRLF pairs included), in random pieces, and byte by
 * byte: the events must never change.
 */
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { AnthropicStreamDecoder } from '../../../../src/providers/anthropic/stream.js';
import { decodeInPieces, fixture, randomCuts } from './canonical.js';

const make = () => new AnthropicStreamDecoder();

const EXPECTED: Record<string, CanonicalStreamEvent[]> = {
  'text.sse': [
    { type: 'start', id: 'msg_01XFDUDYJgAACzvnptvVoYEL', upstreamModel: 'claude-sonnet-4-20250514' },
    { type: 'usage', usage: { inputTokens: 25, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'Héllo' },
    { type: 'text_delta', index: 0, text: ' wörld 世界 👋' },
    { type: 'text_delta', index: 0, text: '!' },
    { type: 'block_stop', index: 0 },
    { type: 'usage', usage: { inputTokens: 25, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'stop', stopSequence: null },
  ],
  'tool-use.sse': [
    { type: 'start', id: 'msg_014p7gG3wDgGV9EUtLvnow3U', upstreamModel: 'claude-sonnet-4-20250514' },
    { type: 'usage', usage: { inputTokens: 472, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: "Okay, let's check the weather for San Francisco, CA:" },
    { type: 'block_stop', index: 0 },
    { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' } },
    { type: 'tool_args_delta', index: 1, json: '{"location":' },
    { type: 'tool_args_delta', index: 1, json: ' "San Fra' },
    { type: 'tool_args_delta', index: 1, json: 'ncisco, CA"' },
    { type: 'tool_args_delta', index: 1, json: ', "unit": "fah' },
    { type: 'tool_args_delta', index: 1, json: 'renheit"}' },
    { type: 'block_stop', index: 1 },
    { type: 'usage', usage: { inputTokens: 472, outputTokens: 89, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
  ],
  // message_delta carries only output_tokens: the cache fields of message_start must survive.
  'thinking-cached.sse': [
    { type: 'start', id: 'msg_01ThinkCache7Tn2b', upstreamModel: 'claude-sonnet-4-20250514' },
    { type: 'usage', usage: { inputTokens: 12, outputTokens: 1, cacheReadTokens: 2048, cacheWriteTokens: 1100, reasoningTokens: 0 } },
    { type: 'block_start', index: 0, block: { type: 'thinking' } },
    { type: 'thinking_delta', index: 0, text: 'Let me solve this step by step:\n\n1. First break down 27 * 453' },
    { type: 'thinking_delta', index: 0, text: '\n2. 453 = 400 + 50 + 3' },
    { type: 'signature_delta', index: 0, signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
    { type: 'block_stop', index: 0 },
    // redacted_thinking (Anthropic index 1) has no stream form: the text block becomes canonical index 1.
    { type: 'block_start', index: 1, block: { type: 'text' } },
    { type: 'text_delta', index: 1, text: '27 * 453 = 12,231' },
    { type: 'block_stop', index: 1 },
    { type: 'usage', usage: { inputTokens: 12, outputTokens: 120, cacheReadTokens: 2048, cacheWriteTokens: 1100, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'stop_sequence', stopSequence: '###' },
  ],
  // Newer API versions repeat cumulative input/cache totals in message_delta: they replace the start values.
  'cumulative-usage.sse': [
    { type: 'start', id: 'msg_01CumulativeUsage9', upstreamModel: 'claude-opus-4-1' },
    { type: 'usage', usage: { inputTokens: 40, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'Done.' },
    { type: 'block_stop', index: 0 },
    { type: 'usage', usage: { inputTokens: 41, outputTokens: 2, cacheReadTokens: 300, cacheWriteTokens: 7, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'length', stopSequence: null },
  ],
};

describe('AnthropicStreamDecoder', () => {
  describe.each(Object.keys(EXPECTED))('%s', (name) => {
    const bytes = fixture('anthropic', name);
    const expected = EXPECTED[name]!;

    it('decodes whole', () => {
      expect(decodeInPieces(make, bytes, [])).toEqual(expected);
    });

    it('split at every byte position', () => {
      for (let cut = 0; cut <= bytes.length; cut++) expect(decodeInPieces(make, bytes, [cut])).toEqual(expected);
    });

    it('random pieces and byte by byte', () => {
      for (let seed = 1; seed <= 20; seed++) expect(decodeInPieces(make, bytes, randomCuts(bytes.length, 12, seed))).toEqual(expected);
      expect(decodeInPieces(make, bytes, Array.from({ length: bytes.length }, (_, i) => i))).toEqual(expected);
    });

    it('CRLF line endings, split at every position', () => {
      const crlf = Buffer.from(bytes.toString('utf8').replace(/\n/g, '\r\n'));
      for (let cut = 0; cut <= crlf.length; cut += 1) expect(decodeInPieces(make, crlf, [cut])).toEqual(expected);
    });
  });

  it('an error event mid-stream throws the mapped GatewayError (overloaded -> 503), after the events before it', () => {
    const decoder = make();
    const bytes = fixture('anthropic', 'overloaded-midstream.sse');
    const cut = bytes.indexOf('event: error');
    const before = decoder.push(bytes.subarray(0, cut));
    expect(before.map((e) => e.type)).toEqual(['start', 'usage', 'block_start', 'text_delta']);
    const error = (() => {
      try {
        decoder.push(bytes.subarray(cut));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(503);
    expect((error as GatewayError).message).toBe('The provider is unavailable');
  });

  it('a stream cut before message_stop, or inside an event, throws on end()', () => {
    const bytes = fixture('anthropic', 'text.sse');
    const noStop = bytes.subarray(0, bytes.indexOf('event: message_stop'));
    const decoder = make();
    decoder.push(noStop);
    expect(() => decoder.end()).toThrow(GatewayError);
    const inside = make();
    inside.push(bytes.subarray(0, bytes.length - 5));
    expect(() => inside.end()).toThrow(/message_stop/);
  });

  it('a non-JSON data line is an unreadable stream (502)', () => {
    const decoder = make();
    expect(() => decoder.push(Buffer.from('event: message_start\ndata: {oops\n\n'))).toThrow(GatewayError);
  });
});
