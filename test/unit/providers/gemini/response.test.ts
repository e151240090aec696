/** Recorded Gemini bodies and streams -> canonical; streams split at every byte; Google error bodies. */
import { describe, expect, it } from 'vitest';
import type { CanonicalResponse } from '../../../../src/canonical/types.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { geminiAdapter } from '../../../../src/providers/gemini/adapter.js';
import { decode, decodeEverySplit, fixture, fixtureText } from '../openai/helpers.js';

const parse = (name: string): CanonicalResponse => geminiAdapter.parseResponse(fixture('gemini', name));
const make = () => geminiAdapter.streamDecoder();

describe('geminiAdapter.parseResponse', () => {
  it('generate-text.json: parts joined, cached tokens out of input', () => {
    expect(parse('generate-text.json')).toEqual({
      id: 'Fh3TZ5fOLd6anvgPu9ex4Qk',
      upstreamModel: 'gemini-2.0-flash',
      created: expect.any(Number) as number,
      content: [{ type: 'text', text: 'The sea is wide and deep.' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 6, outputTokens: 7, cacheReadTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('generate-parallel-calls.json: ids from the response id, the signature kept before the first call, thoughts billed as output', () => {
    const res = parse('generate-parallel-calls.json');
    expect(res.content).toEqual([
      { type: 'thinking', text: '', signature: 'CiQB0e2Kb4zZsig1' },
      { type: 'tool_call', id: 'call_r2Calls_0', name: 'get_weather', arguments: '{"location":"Paris"}' },
      { type: 'tool_call', id: 'call_r2Calls_1', name: 'get_weather', arguments: '{"location":"Tokyo"}' },
    ]);
    expect(res.stopReason).toBe('tool_calls');
    expect(res.usage).toEqual({ inputTokens: 60, outputTokens: 120, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 100 });
  });

  it('generate-thinking.json: a thought part, then the signature that rode on the text', () => {
    expect(parse('generate-thinking.json').content).toEqual([
      { type: 'thinking', text: '**Weighing the question**\n\nThe user asks for a prime.' },
      { type: 'thinking', text: '', signature: 'Ei0KKwHR7YpvSig2' },
      { type: 'text', text: '7 is prime.' },
    ]);
  });

  it('generate-prompt-blocked.json and generate-safety.json are content_filter stops', () => {
    const blocked = parse('generate-prompt-blocked.json');
    expect(blocked.content).toEqual([]);
    expect(blocked.stopReason).toBe('content_filter');
    expect(blocked.usage.inputTokens).toBe(14);
    expect(parse('generate-safety.json')).toMatchObject({ stopReason: 'content_filter', content: [{ type: 'text', text: 'I can tell you that' }] });
  });

  it('with candidateCount > 1 the candidate with index 0 is read, wherever it sits', () => {
    const body = {
      candidates: [
        { index: 1, content: { parts: [{ text: 'second' }] }, finishReason: 'MAX_TOKENS' },
        { content: { parts: [{ text: 'first' }] }, finishReason: 'STOP' },
      ],
      responseId: 'multi',
    };
    expect(geminiAdapter.parseResponse(Buffer.from(JSON.stringify(body)))).toMatchObject({ content: [{ type: 'text', text: 'first' }], stopReason: 'stop' });
    const chunk = `data: ${JSON.stringify(body)}\r\n\r\n`;
    expect(decode(make, Buffer.from(chunk)).filter((e) => e.type === 'text_delta')).toEqual([{ type: 'text_delta', index: 0, text: 'first' }]);
  });

  it('an HTML body is a 502', () => {
    expect(() => geminiAdapter.parseResponse(Buffer.from('<!DOCTYPE html>'))).toThrow(GatewayError);
  });
});

describe('GeminiStreamDecoder', () => {
  it('stream-text.sse: CRLF-framed events, multi-byte text, usage and finish on the finishReason chunk', () => {
    expect(decodeEverySplit(make, fixture('gemini', 'stream-text.sse'))).toEqual([
      { type: 'start', id: 'sTr3am', upstreamModel: 'gemini-2.0-flash' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Ça' },
      { type: 'text_delta', index: 0, text: ' va très' },
      { type: 'text_delta', index: 0, text: ' bien 🌊' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it('stream-function-calls.sse: text, then each whole call as a block with one args delta', () => {
    expect(decodeEverySplit(make, fixture('gemini', 'stream-function-calls.sse'))).toEqual([
      { type: 'start', id: 'fnC4ll', upstreamModel: 'gemini-2.5-flash' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Looking up both.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'call_fnC4ll_0', name: 'get_weather' } },
      { type: 'tool_args_delta', index: 1, json: '{"location":"Paris"}' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'call_fnC4ll_1', name: 'get_time' } },
      { type: 'tool_args_delta', index: 2, json: '{"tz":"Europe/Paris"}' },
      { type: 'block_stop', index: 2 },
      { type: 'usage', usage: { inputTokens: 40, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
    ]);
  });

  it('stream-thinking.sse: thought chunks, a signature block, then text; an empty last text opens nothing', () => {
    expect(decodeEverySplit(make, fixture('gemini', 'stream-thinking.sse'))).toEqual([
      { type: 'start', id: 'th1nk', upstreamModel: 'gemini-2.5-pro' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: '**Plan**' },
      { type: 'thinking_delta', index: 0, text: ' check parity' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 1, signature: 'c2lnLXRleHQ=' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'text' } },
      { type: 'text_delta', index: 2, text: 'Odd.' },
      { type: 'block_stop', index: 2 },
      { type: 'usage', usage: { inputTokens: 8, outputTokens: 53, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 50 } },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it('stream-max-tokens.sse: MAX_TOKENS is a length stop', () => {
    expect(decodeEverySplit(make, fixture('gemini', 'stream-max-tokens.sse')).at(-1)).toEqual({ type: 'finish', stopReason: 'length', stopSequence: null });
  });

  it('stream-cut-before-finish.sse: no finishReason before the end is a 502, not a finish', () => {
    expect(() => decode(make, fixture('gemini', 'stream-cut-before-finish.sse'))).toThrow(GatewayError);
  });

  it('an error event mid-stream throws a 502 without the key', () => {
    const bytes = Buffer.from('data: {"error":{"code":500,"message":"internal for AIzaSyD3-abcdefghijklmnopqrstuvwxyz12345","status":"INTERNAL"}}\r\n\r\n');
    let caught: unknown;
    try {
      decode(make, bytes);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect((caught as GatewayError).message).not.toContain('AIzaSyD3');
  });
});

describe('mapGoogleError', () => {
  const KEY = 'AIzaSyD3-abcdefghijklmnopqrstuvwxyz12345';
  it.each([
    ['error-400-api-key-invalid.json', 400, 503, 'service_unavailable', null],
    ['error-400-invalid-argument.json', 400, 400, 'invalid_request', 'contents.parts must not be empty'],
    ['error-403-permission-denied.json', 403, 503, 'service_unavailable', null],
    ['error-404-not-found.json', 404, 400, 'invalid_request', 'models/gemini-9 is not found'],
    ['error-429-resource-exhausted.json', 429, 429, 'rate_limit_exceeded', 'The provider is rate limiting'],
    ['error-500-internal.json', 500, 503, 'service_unavailable', 'The provider is unavailable'],
    ['error-503-unavailable-array.json', 503, 503, 'service_unavailable', 'The provider is unavailable'],
  ] as const)('%s -> %i', (name, upstream, status, code, detail) => {
    const err = geminiAdapter.mapError(upstream, fixtureText('gemini', name));
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(JSON.stringify(err.toBody())).not.toContain(KEY);
    if (detail) expect(err.message).toContain(detail);
    else expect(err.message).toBe('The provider refused the gateway credentials.');
  });

  it("failover on 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE and 529 only", () => {
    expect([400, 403, 404, 429, 500, 503, 504, 529].filter((s) => geminiAdapter.mayFailOver(s))).toEqual([429, 503, 529]);
  });
});
