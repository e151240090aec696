/** Canonical request -> OpenAI chat-completions body: table of whole expected bodies. */
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, JsonObject } from '../../../../src/canonical/types.js';
import { openaiAdapter } from '../../../../src/providers/openai/adapter.js';
import { OPENAI_PARAMS } from '../../../../src/providers/openai/params.js';
import { toChatRequest } from '../../../../src/providers/openai/request.js';
import { canonical } from './helpers.js';

const WEATHER = { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { location: { type: 'string' } } } };

const TOOL_ROUND_TRIP: Partial<CanonicalRequest> = {
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Tokyo?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'two calls', signature: 'sig' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
        { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"location":"Tokyo"}' },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'sunny' }] },
        {
          type: 'tool_result',
          toolCallId: 'call_2',
          content: [
            { type: 'text', text: 'rain' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/radar.png' } },
          ],
          isError: false,
        },
      ],
    },
  ],
  tools: [WEATHER],
  toolChoice: { type: 'auto' },
  parallelToolCalls: true,
};

const CASES: { name: string; req: CanonicalRequest; max?: number; body: JsonObject }[] = [
  {
    name: 'plain text: system and developer roles, sampling, stop, user',
    req: canonical({
      system: [
        { role: 'system', text: 'Be terse.' },
        { role: 'developer', text: 'Answer in French.' },
      ],
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      seed: 7,
      stop: ['END'],
      user: 'u-42',
    }),
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
      ],
      max_completion_tokens: 256,
      temperature: 0.2,
      top_p: 0.9,
      presence_penalty: 0.1,
      frequency_penalty: 0.3,
      seed: 7,
      stop: ['END'],
      user: 'u-42',
    },
  },
  {
    name: 'images: URL with detail and base64 as a data URL; author name',
    req: canonical({
      messages: [
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' }, detail: 'low' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
    }),
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.jpg', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
      max_completion_tokens: 256,
    },
  },
  {
    name: 'tool round trip: tool_calls, one tool message per result, a tool image follows as a user turn',
    req: canonical(TOOL_ROUND_TRIP),
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/radar.png' } }] },
      ],
      tools: [{ type: 'function', function: WEATHER }],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      max_completion_tokens: 256,
    },
  },
  {
    name: 'forced tool, strict schema, json_schema response format, reasoning effort, stream with usage',
    req: canonical({
      tools: [{ ...WEATHER, strict: true }],
      toolChoice: { type: 'tool', name: 'get_weather' },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      reasoning: { effort: 'high' },
      stream: true,
    }),
    max: 1000,
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'user', content: 'Hello' }],
      tools: [{ type: 'function', function: { ...WEATHER, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 1000,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'high',
      stream: true,
      stream_options: { include_usage: true },
    },
  },
  {
    name: 'required tool choice, json_object, a thinking budget as effort, n, OpenAI extensions; parallel_tool_calls without tools dropped',
    req: canonical({
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_object' },
      reasoning: { budgetTokens: 10000 },
      n: 2,
      extensions: { openai: { logprobs: true, topLogprobs: 3, logitBias: { '50256': -100 }, store: false } },
    }),
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'user', content: 'Hello' }],
      tool_choice: 'required',
      max_completion_tokens: 256,
      n: 2,
      response_format: { type: 'json_object' },
      reasoning_effort: 'medium',
      logprobs: true,
      top_logprobs: 3,
      logit_bias: { '50256': -100 },
      store: false,
    },
  },
  {
    name: 'an assistant turn of only tool calls has content null',
    req: canonical({
      messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }] }],
    }),
    body: {
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }],
      max_completion_tokens: 256,
    },
  },
];

describe('toChatRequest (OpenAI row)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(toChatRequest(c.req, 'gpt-4o-2024-08-06', c.max ?? 256, OPENAI_PARAMS)).toEqual(c.body);
    });
  }
});

describe('openaiAdapter.buildRequest', () => {
  const ep = { provider: 'openai', upstreamModel: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1/', apiKeyEnv: 'OPENAI_KEY' };
  it('URL, Bearer auth from the env, JSON body; accept SSE when streaming', () => {
    const req = openaiAdapter.buildRequest(canonical({ stream: true }), ep, { env: { OPENAI_KEY: 'sk-test' }, maxTokens: 64, now: new Date() });
    expect(req.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(req.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test', accept: 'text/event-stream' });
    expect(JSON.parse(String(req.body))).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 64, stream: true });
  });

  it('the passthrough members are unchanged: chatRequest URL/headers, usage with cached tokens moved out', () => {
    expect(openaiAdapter.capabilities.chatPassthrough).toBe(true);
    expect(openaiAdapter.chatRequest(ep, {})).toEqual({ url: 'https://api.openai.com/v1/chat/completions', headers: { 'content-type': 'application/json' } });
    expect(openaiAdapter.usage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 60 } })).toEqual({
      inputTokens: 40,
      outputTokens: 5,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('failover only on 429, 503, 529', () => {
    expect([400, 401, 403, 404, 429, 500, 502, 503, 529].filter((s) => openaiAdapter.mayFailOver(s))).toEqual([429, 503, 529]);
  });
});
