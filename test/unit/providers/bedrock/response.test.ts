/** Converse responses (recorded bodies by scenario) -> canonical responses. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { bedrockAdapter } from '../../../../src/providers/bedrock/adapter.js';
import { fixture } from '../anthropic/canonical.js';

describe('bedrockAdapter.parseResponse', () => {
  it('text.json', () => {
    expect(bedrockAdapter.parseResponse(fixture('bedrock', 'text.json'))).toEqual({
      id: expect.stringMatching(/^bedrock-/),
      upstreamModel: '',
      created: expect.any(Number),
      content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 15, outputTokens: 11, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('tool-use.json: toolUse -> tool_call (arguments = JSON of input), tool_use -> tool_calls', () => {
    const res = bedrockAdapter.parseResponse(fixture('bedrock', 'tool-use.json'));
    expect(res.content).toEqual([
      { type: 'text', text: "I'll look up the weather for Seattle." },
      { type: 'tool_call', id: 'tooluse_hbTgdi0CSLq_hM4P8csZJA', name: 'top_song', arguments: '{"sign":"WZPZ"}' },
    ]);
    expect(res.stopReason).toBe('tool_calls');
  });

  it('reasoning-cached.json: reasoning text + signature, redacted reasoning, cache reads/writes apart, stop sequence', () => {
    const res = bedrockAdapter.parseResponse(fixture('bedrock', 'reasoning-cached.json'));
    expect(res.content).toEqual([
      { type: 'thinking', text: 'The user wants the capital of France.', signature: 'ErcBCkgIAxABGAIiQMV0rn3T2' },
      { type: 'thinking', text: '', redacted: 'RW13S0FoZ0JFZ3kzdmEzcHppeA==' },
      { type: 'text', text: 'Paris' },
    ]);
    expect(res.stopReason).toBe('stop_sequence');
    expect(res.stopSequence).toBe('\n\nHuman:');
    expect(res.usage).toEqual({ inputTokens: 20, outputTokens: 140, cacheReadTokens: 4096, cacheWriteTokens: 1024, reasoningTokens: 0 });
  });

  it.each([
    ['max_tokens', 'length'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['malformed_tool_use', 'error'],
    ['model_context_window_exceeded', 'length'],
  ])('stopReason %s -> %s', (reason, expected) => {
    const body = { output: { message: { role: 'assistant', content: [] } }, stopReason: reason, usage: {} };
    expect(bedrockAdapter.parseResponse(Buffer.from(JSON.stringify(body))).stopReason).toBe(expected);
  });

  it('an unreadable body is a 502', () => {
    for (const raw of ['nope', '{"output":{}}', '{"message":"x"}']) {
      expect(() => bedrockAdapter.parseResponse(Buffer.from(raw))).toThrow(GatewayError);
    }
  });
});
