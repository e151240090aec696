/** Mistral: its parameter row on the shared base, recorded bodies and streams, and its three error shapes. */
import { describe, expect, it } from 'vitest';
import { mistralAdapter } from '../../../../src/providers/mistral/adapter.js';
import { MISTRAL_PARAMS, mistralToolCallId } from '../../../../src/providers/mistral/params.js';
import { toChatRequest } from '../../../../src/providers/openai/request.js';
import { canonical, decodeEverySplit, fixture, fixtureText } from '../openai/helpers.js';

describe('toChatRequest (Mistral row)', () => {
  it('max_tokens, random_seed, "any", system for developer, ids rewritten; user, top_k, extensions, stream_options dropped', () => {
    const req = canonical({
      system: [{ role: 'developer', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_abc', name: 'get_weather', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_abc', content: [{ type: 'text', text: 'rain' }] }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'Ab3dE6gH9', name: 'get_weather', arguments: '{}' }] },
      ],
      tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
      toolChoice: { type: 'required' },
      seed: 11,
      topK: 5,
      user: 'u1',
      reasoning: { effort: 'low' },
      extensions: { openai: { logprobs: true } },
      stream: true,
    });
    const id = mistralToolCallId('call_abc');
    expect(toChatRequest(req, 'mistral-large-latest', 300, MISTRAL_PARAMS)).toEqual({
      model: 'mistral-large-latest',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: id, content: 'rain' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'Ab3dE6gH9', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'any',
      max_tokens: 300,
      random_seed: 11,
      reasoning_effort: 'low',
      stream: true,
    });
  });

  it('tool-call ids: 9 alphanumerics, stable, distinct for distinct ids; valid ids kept', () => {
    const a = mistralToolCallId('call_Q2xvc2VkIGJ5IE9wZW5BSQ');
    expect(a).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(mistralToolCallId('call_Q2xvc2VkIGJ5IE9wZW5BSQ')).toBe(a);
    expect(mistralToolCallId('toolu_01A09q90qw90lq917835lq9')).not.toBe(a);
    expect(mistralToolCallId('D681PevKs')).toBe('D681PevKs');
  });

  it('buildRequest: Bearer auth, /chat/completions; not a passthrough target', () => {
    const ep = { provider: 'mistral', upstreamModel: 'mistral-small-latest', baseUrl: 'https://api.mistral.ai/v1', apiKeyEnv: 'MISTRAL_API_KEY' };
    const up = mistralAdapter.buildRequest(canonical(), ep, { env: { MISTRAL_API_KEY: 'mk' }, maxTokens: 10, now: new Date() });
    expect(up.url).toBe('https://api.mistral.ai/v1/chat/completions');
    expect(up.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer mk' });
    expect(mistralAdapter.capabilities.chatPassthrough).toBe(false);
  });
});

describe('mistralAdapter.parseResponse', () => {
  it('chat-tool-call.json: a 9-character id, content "" with tool calls', () => {
    expect(mistralAdapter.parseResponse(fixture('mistral', 'chat-tool-call.json'))).toEqual({
      id: '5bd2a0ec2bb04b6f9f2ee5e3b5c1b6f3',
      upstreamModel: 'mistral-large-latest',
      created: 1741572000,
      content: [{ type: 'tool_call', id: 'D681PevKs', name: 'get_weather', arguments: '{"location": "Paris"}' }],
      stopReason: 'tool_calls',
      stopSequence: null,
      usage: { inputTokens: 94, outputTokens: 23, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('chat-thinking.json: Magistral content chunks -> thinking then text', () => {
    expect(mistralAdapter.parseResponse(fixture('mistral', 'chat-thinking.json')).content).toEqual([
      { type: 'thinking', text: 'The user wants a number. 2+2=4.' },
      { type: 'text', text: 'The answer is 4.' },
    ]);
  });

  it('chat-model-length.json: model_length is a length stop', () => {
    expect(mistralAdapter.parseResponse(fixture('mistral', 'chat-model-length.json')).stopReason).toBe('length');
  });
});

describe('mistralAdapter.streamDecoder', () => {
  const make = () => mistralAdapter.streamDecoder();
  it('stream-text.sse: usage rides on the finish chunk (no stream_options); finish at [DONE]', () => {
    expect(decodeEverySplit(make, fixture('mistral', 'stream-text.sse'))).toEqual([
      { type: 'start', id: 'a5b5f6a2e1d34f1b9a1e3c0f3a7d9b21', upstreamModel: 'mistral-small-latest' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Bonjour' },
      { type: 'text_delta', index: 0, text: ' à tous' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it('stream-parallel-tool-calls.sse: whole calls in one chunk become two blocks', () => {
    expect(decodeEverySplit(make, fixture('mistral', 'stream-parallel-tool-calls.sse'))).toEqual([
      { type: 'start', id: 'b7c1', upstreamModel: 'mistral-large-latest' },
      { type: 'block_start', index: 0, block: { type: 'tool_call', id: 'Xk3pQ9zLm', name: 'get_weather' } },
      { type: 'tool_args_delta', index: 0, json: '{"location": "Paris"}' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'Yq7rT2wNb', name: 'get_weather' } },
      { type: 'tool_args_delta', index: 1, json: '{"location": "Lyon"}' },
      { type: 'block_stop', index: 1 },
      { type: 'usage', usage: { inputTokens: 80, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
    ]);
  });

  it('stream-thinking.sse: thinking chunks form a thinking block before the text', () => {
    const events = decodeEverySplit(make, fixture('mistral', 'stream-thinking.sse'));
    expect(events.slice(1, 7)).toEqual([
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'Let me think.' },
      { type: 'thinking_delta', index: 0, text: ' Done.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Four.' },
    ]);
  });
});

describe('mapMistralError', () => {
  const KEY = 'Zq8bW2xT5vN7mK3pR9sL4dF6hJ1gY0cA';
  it.each([
    ['error-400-invalid-message.json', 400, 400, 'invalid_request', 'must have either content or tool_calls'],
    ['error-401-detail.json', 401, 503, 'service_unavailable', null],
    ['error-401-message.json', 401, 503, 'service_unavailable', null],
    ['error-404-not-found.json', 404, 400, 'invalid_request', 'Not Found'],
    ['error-422-extra-forbidden.json', 422, 400, 'invalid_request', 'body.max_completion_tokens: Extra inputs are not permitted'],
    ['error-429-rate-limited.json', 429, 429, 'rate_limit_exceeded', 'The provider is rate limiting'],
    ['error-500-internal.json', 500, 503, 'service_unavailable', 'The provider is unavailable'],
    ['error-503-capacity.json', 503, 503, 'service_unavailable', 'The provider is unavailable'],
  ] as const)('%s -> %i', (name, upstream, status, code, detail) => {
    const err = mistralAdapter.mapError(upstream, fixtureText('mistral', name));
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(JSON.stringify(err.toBody())).not.toContain(KEY);
    if (detail) expect(err.message).toContain(detail);
    else expect(err.message).toBe('The provider refused the gateway credentials.');
  });
});
