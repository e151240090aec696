/** Anthropic Messages responses (recorded bodies by scenario) -> canonical responses. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { anthropicAdapter } from '../../../../src/providers/anthropic/adapter.js';
import { fixture } from './canonical.js';

describe('anthropicAdapter.parseResponse', () => {
  it('text.json: text block, end_turn -> stop, usage', () => {
    const res = anthropicAdapter.parseResponse(fixture('anthropic', 'text.json'));
    expect(res).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      upstreamModel: 'claude-sonnet-4-20250514',
      created: expect.any(Number),
      content: [{ type: 'text', text: 'Hi! My name is Claude.' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 2095, outputTokens: 503, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('tool-use.json: tool_use -> tool_call with arguments = JSON.stringify(input); tool_use -> tool_calls', () => {
    const res = anthropicAdapter.parseResponse(fixture('anthropic', 'tool-use.json'));
    expect(res.content).toEqual([
      { type: 'text', text: "I'll check the current weather in San Francisco for you." },
      { type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
    ]);
    expect(res.stopReason).toBe('tool_calls');
    expect(res.usage).toEqual({ inputTokens: 384, outputTokens: 92, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('thinking-cached.json: thinking + redacted thinking kept, server tool block skipped, cache and thinking tokens, stop_sequence', () => {
    const res = anthropicAdapter.parseResponse(fixture('anthropic', 'thinking-cached.json'));
    expect(res.content).toEqual([
      {
        type: 'thinking',
        text: "To approach this, let's think about what we know about prime numbers...",
        signature: 'zbbJhbGciOiJFU8zI1NiIsImtakcjsu38219c0.eyJoYXNoIjoiYWJjMTIzIiwiaWFxxxjoxNjE0NTM0NTY3fQ....',
      },
      { type: 'thinking', text: '', redacted: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      { type: 'text', text: 'Yes, there are infinitely many prime numbers such that' },
    ]);
    expect(res.stopReason).toBe('stop_sequence');
    expect(res.stopSequence).toBe('###');
    // input_tokens already excludes both cache classes: nothing is subtracted.
    expect(res.usage).toEqual({ inputTokens: 12, outputTokens: 640, cacheReadTokens: 2048, cacheWriteTokens: 1100, reasoningTokens: 512 });
  });

  it.each([
    ['max_tokens', 'length'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
    ['model_context_window_exceeded', 'length'],
    [null, 'stop'],
  ])('stop_reason %s -> %s', (reason, expected) => {
    const body = { type: 'message', id: 'm', model: 'x', content: [], stop_reason: reason, stop_sequence: null, usage: {} };
    expect(anthropicAdapter.parseResponse(Buffer.from(JSON.stringify(body))).stopReason).toBe(expected);
  });

  it('an unreadable body is a 502 upstream_error', () => {
    for (const raw of ['not json', '{"type":"error"}', '[]']) {
      const error = (() => {
        try {
          anthropicAdapter.parseResponse(Buffer.from(raw));
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(503);
    }
  });
});
