/** ConverseStream event streams (SDK-encoded fixtures) -> canonical events, robust to any split. */
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { BedrockStreamDecoder } from '../../../../src/providers/bedrock/stream.js';
import { decodeInPieces, fixture, randomCuts } from '../anthropic/canonical.js';

const make = () => new BedrockStreamDecoder();
const START = { type: 'start', id: expect.stringMatching(/^bedrock-/) as unknown as string, upstreamModel: '' } as const;

const EXPECTED: Record<string, CanonicalStreamEvent[]> = {
  text: [
    START,
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'Héllo' },
    { type: 'text_delta', index: 0, text: ' wörld 世界 👋' },
    { type: 'text_delta', index: 0, text: '!' },
    { type: 'block_stop', index: 0 },
    { type: 'usage', usage: { inputTokens: 12, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'stop', stopSequence: null },
  ],
  'tool-use': [
    START,
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'Let me check.' },
    { type: 'block_stop', index: 0 },
    { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' } },
    { type: 'tool_args_delta', index: 1, json: '{"location": "Par' },
    { type: 'tool_args_delta', index: 1, json: 'is"}' },
    { type: 'block_stop', index: 1 },
    { type: 'usage', usage: { inputTokens: 20, outputTokens: 30, cacheReadTokens: 2048, cacheWriteTokens: 0, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
  ],
  'reasoning-stop-sequence': [
    START,
    { type: 'block_start', index: 0, block: { type: 'thinking' } },
    { type: 'thinking_delta', index: 0, text: 'The user asks for 2+2.' },
    { type: 'thinking_delta', index: 0, text: ' That is 4.' },
    { type: 'signature_delta', index: 0, signature: 'ErcBCkgIAxABGAIiQMV0rn3T2ABCDEFsignature' },
    { type: 'block_stop', index: 0 },
    { type: 'block_start', index: 1, block: { type: 'text' } },
    { type: 'text_delta', index: 1, text: '4' },
    { type: 'block_stop', index: 1 },
    { type: 'usage', usage: { inputTokens: 30, outputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 1536, reasoningTokens: 0 } },
    { type: 'finish', stopReason: 'stop_sequence', stopSequence: '###' },
  ],
};

describe('BedrockStreamDecoder', () => {
  describe.each(Object.keys(EXPECTED))('%s', (name) => {
    const bytes = fixture('bedrock', `${name}.eventstream`);
    const expected = EXPECTED[name]!;

    it('whole, at every split, and in random pieces', () => {
      expect(decodeInPieces(make, bytes, [])).toEqual(expected);
      for (let cut = 0; cut <= bytes.length; cut++) expect(decodeInPieces(make, bytes, [cut])).toEqual(expected);
      for (let seed = 1; seed <= 20; seed++) expect(decodeInPieces(make, bytes, randomCuts(bytes.length, 10, seed))).toEqual(expected);
    });
  });

  it('a throttlingException frame mid-stream throws rate_limit_exceeded after the earlier events', () => {
    const decoder = make();
    let error: unknown = null;
    const seen: CanonicalStreamEvent[] = [];
    try {
      const bytes = fixture('bedrock', 'throttling-midstream.eventstream');
      for (let i = 0; i < bytes.length; i += 7) seen.push(...decoder.push(bytes.subarray(i, i + 7)));
    } catch (e) {
      error = e;
    }
    expect(seen.map((e) => e.type)).toEqual(['start', 'block_start', 'text_delta']);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(429);
    expect((error as GatewayError).message).toBe('The provider is rate limiting');
  });

  it('cut before messageStop, inside a frame, or corrupted: a 502 upstream error', () => {
    const bytes = fixture('bedrock', 'text.eventstream');
    const cutInside = make();
    cutInside.push(bytes.subarray(0, bytes.length - 3));
    expect(() => cutInside.end()).toThrow(/inside a frame/);
    const firstFrame = bytes.readUInt32BE(0);
    const onlyStart = make();
    onlyStart.push(bytes.subarray(0, firstFrame));
    expect(() => onlyStart.end()).toThrow(/messageStop/);
    const corrupt = Buffer.from(bytes);
    corrupt[firstFrame + 40] = corrupt[firstFrame + 40]! ^ 0x10;
    let error: unknown = null;
    try {
      make().push(corrupt);
    } catch (e) {
      error = e;
    }
    expect((error as GatewayError).status).toBe(503);
  });

  it('messageStop without metadata still finishes on end()', () => {
    const bytes = fixture('bedrock', 'text.eventstream');
    let at = 0;
    const frames: Buffer[] = [];
    while (at < bytes.length) {
      const len = bytes.readUInt32BE(at);
      frames.push(bytes.subarray(at, at + len));
      at += len;
    }
    const decoder = make();
    const events = decoder.push(Buffer.concat(frames.slice(0, -1)));
    expect(events.at(-1)?.type).toBe('block_stop');
    expect(decoder.end()).toEqual([{ type: 'finish', stopReason: 'stop', stopSequence: null }]);
  });
});
