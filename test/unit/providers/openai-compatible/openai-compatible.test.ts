/** Self-hosted OpenAI-compatible servers: the parameter row and what vLLM, Ollama and llama.cpp really send. */
import { describe, expect, it } from 'vitest';
import { openaiCompatibleAdapter as adapter } from '../../../../src/providers/openai-compatible/adapter.js';
import { OPENAI_COMPATIBLE_PARAMS } from '../../../../src/providers/openai-compatible/params.js';
import { toChatRequest } from '../../../../src/providers/openai/request.js';
import { canonical, decodeEverySplit, fixture, fixtureText } from '../openai/helpers.js';

const make = () => adapter.streamDecoder();

describe('toChatRequest (OpenAI-compatible row)', () => {
  it('max_tokens, top_k, system for developer, reasoning_effort kept; OpenAI-only extensions dropped', () => {
    const req = canonical({
      system: [{ role: 'developer', text: 'Think step by step.' }],
      topK: 20,
      reasoning: { effort: 'low' },
      extensions: { openai: { store: true } },
      user: 'u9',
      stream: true,
    });
    expect(toChatRequest(req, 'Qwen/Qwen3-8B', 512, OPENAI_COMPATIBLE_PARAMS)).toEqual({
      model: 'Qwen/Qwen3-8B',
      messages: [
        { role: 'system', content: 'Think step by step.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 512,
      top_k: 20,
      reasoning_effort: 'low',
      user: 'u9',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('auth is optional: no apiKeyEnv, or an empty variable, sends no Authorization', () => {
    const ep = { provider: 'openai-compatible', upstreamModel: 'm', baseUrl: 'http://gpu-box:8000/v1', apiKeyEnv: null };
    expect(adapter.chatRequest(ep, {})).toEqual({ url: 'http://gpu-box:8000/v1/chat/completions', headers: { 'content-type': 'application/json' } });
    expect(adapter.chatRequest({ ...ep, apiKeyEnv: 'VLLM_KEY' }, { VLLM_KEY: '' }).headers).toEqual({ 'content-type': 'application/json' });
    expect(adapter.chatRequest({ ...ep, apiKeyEnv: 'VLLM_KEY' }, { VLLM_KEY: 'tok' }).headers.authorization).toBe('Bearer tok');
    expect(adapter.capabilities.chatPassthrough).toBe(true);
  });
});

describe('recorded self-hosted streams', () => {
  it('vllm-stream-reasoning-no-usage.sse: reasoning_content is a thinking block; no usage chunk, still a finish', () => {
    expect(decodeEverySplit(make, fixture('openai-compatible', 'vllm-stream-reasoning-no-usage.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-vllm-1', upstreamModel: 'Qwen/Qwen3-8B' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'The user greets.' },
      { type: 'thinking_delta', index: 0, text: ' Reply warmly.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Hi there!' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it('ollama-stream-tool-call.sse: a whole tool call; "stop" after a tool call means tool_calls', () => {
    expect(decodeEverySplit(make, fixture('openai-compatible', 'ollama-stream-tool-call.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-412', upstreamModel: 'qwen2.5:7b' },
      { type: 'block_start', index: 0, block: { type: 'tool_call', id: 'call_x8k2m1', name: 'get_weather' } },
      { type: 'tool_args_delta', index: 0, json: '{"location":"Paris"}' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 150, outputTokens: 18, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
    ]);
  });

  it('llamacpp-stream-no-done.sse: no [DONE] after the finish chunk still finishes at end of stream', () => {
    expect(decodeEverySplit(make, fixture('openai-compatible', 'llamacpp-stream-no-done.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-lcpp', upstreamModel: 'gpt-3.5-turbo' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Twelve' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 25, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'length', stopSequence: null },
    ]);
  });
});

describe('recorded self-hosted bodies', () => {
  it('ollama-chat-reasoning.json: `reasoning` is thinking', () => {
    expect(adapter.parseResponse(fixture('openai-compatible', 'ollama-chat-reasoning.json'))).toEqual({
      id: 'chatcmpl-557',
      upstreamModel: 'gpt-oss:20b',
      created: 1741573300,
      content: [
        { type: 'thinking', text: 'Capital of France.' },
        { type: 'text', text: 'Paris.' },
      ],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 70, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('vllm-chat-tool-call.json: null reasoning and content, one tool call, null prompt_tokens_details', () => {
    const res = adapter.parseResponse(fixture('openai-compatible', 'vllm-chat-tool-call.json'));
    expect(res.content).toEqual([{ type: 'tool_call', id: 'chatcmpl-tool-5c1b2a', name: 'get_weather', arguments: '{"location": "Paris"}' }]);
    expect(res.usage).toEqual({ inputTokens: 210, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it.each([
    ['error-400-vllm.json', 400, 400, 'maximum context length'],
    ['error-404-ollama.json', 404, 400, 'not found, try pulling it first'],
    ['error-503-llamacpp.json', 503, 503, 'The provider is unavailable'],
  ] as const)('%s -> %i with the server text for a rejected request, never its credentials', (name, upstream, status, detail) => {
    const err = adapter.mapError(upstream, fixtureText('openai-compatible', name));
    expect(err.status).toBe(status);
    expect(err.message).toContain(detail);
    expect(err.message).not.toMatch(/sk-ollama-9f8e7d6c5b4a39281706|abc\.def-ghi_jkl/);
  });
});
