/** chat.completion bodies (recorded shapes under test/fixtures/openai) -> CanonicalResponse. */
import { describe, expect, it } from 'vitest';
import type { CanonicalResponse } from '../../../../src/canonical/types.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { openaiAdapter } from '../../../../src/providers/openai/adapter.js';
import { fixture } from './helpers.js';

const CASES: { scenario: string; expected: CanonicalResponse }[] = [
  {
    scenario: 'chat-text-cached.json',
    expected: {
      id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
      upstreamModel: 'gpt-4o-2024-08-06',
      created: 1741570283,
      content: [{ type: 'text', text: 'The sea is vast, restless and deep.' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 86, outputTokens: 9, cacheReadTokens: 1920, cacheWriteTokens: 0, reasoningTokens: 0 },
    },
  },
  {
    scenario: 'chat-parallel-tool-calls.json',
    expected: {
      id: 'chatcmpl-AbC123',
      upstreamModel: 'gpt-4o-mini-2024-07-18',
      created: 1741570300,
      content: [
        { type: 'tool_call', id: 'call_7mZp1', name: 'get_weather', arguments: '{"location":"Paris"}' },
        { type: 'tool_call', id: 'call_8nQr2', name: 'get_weather', arguments: '{"location":"Tokyo"}' },
      ],
      stopReason: 'tool_calls',
      stopSequence: null,
      usage: { inputTokens: 82, outputTokens: 51, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    },
  },
  {
    scenario: 'chat-reasoning-length.json',
    expected: {
      id: 'chatcmpl-Reas0n',
      upstreamModel: 'o3-mini-2025-01-31',
      created: 1741570400,
      content: [{ type: 'text', text: 'Partial' }],
      stopReason: 'length',
      stopSequence: null,
      usage: { inputTokens: 120, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 499 },
    },
  },
  {
    scenario: 'chat-refusal.json',
    expected: {
      id: 'chatcmpl-Ref',
      upstreamModel: 'gpt-4o-2024-08-06',
      created: 1741570500,
      content: [{ type: 'text', text: "I'm sorry, I can't help with that." }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 20, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    },
  },
];

describe('openaiAdapter.parseResponse', () => {
  for (const c of CASES) {
    it(c.scenario, () => {
      expect(openaiAdapter.parseResponse(fixture('openai', c.scenario))).toEqual(c.expected);
    });
  }

  it('a body that is not JSON is a 502 upstream_error', () => {
    const err = (() => {
      try {
        openaiAdapter.parseResponse(Buffer.from('<html>bad gateway</html>'));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(503);
  });

  it('no usage reads as zero usage; reasoning_content becomes a thinking part first', () => {
    const body = { id: 'x', model: 'm', created: 1, choices: [{ index: 0, message: { role: 'assistant', reasoning_content: 'hmm', content: 'ok' }, finish_reason: 'stop' }] };
    const res = openaiAdapter.parseResponse(Buffer.from(JSON.stringify(body)));
    expect(res.content).toEqual([
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'ok' },
    ]);
    expect(res.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });
});
