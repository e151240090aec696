/** Canonical request -> Anthropic Messages body: whole expected bodies, one scenario per row. */
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { anthropicAdapter } from '../../../../src/providers/anthropic/adapter.js';
import { toAnthropicRequest } from '../../../../src/providers/anthropic/request.js';
import { EFFORT_BUDGET } from '../../../../src/providers/anthropic/thinking.js';
import { canonical } from './canonical.js';


const WEATHER = { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

const cases: { name: string; req: CanonicalRequest; maxTokens?: number; body: Record<string, unknown> }[] = [
  {
    name: 'system + developer blocks with cache breakpoints, clamped temperature, sampling, stops, user, stream',
    req: canonical({
      system: [
        { role: 'system', text: 'Be terse.', cacheControl: { type: 'ephemeral' } },
        { role: 'developer', text: 'Answer in French.', cacheControl: { type: 'ephemeral', ttl: '1h' } },
        { role: 'system', text: '' },
      ],
      temperature: 1.7,
      topP: 0.9,
      topK: 40,
      seed: 7,
      presencePenalty: 0.5,
      stop: ['END', '###'],
      user: 'user-42',
      stream: true,
    }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      system: [
        { type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      stop_sequences: ['END', '###'],
      temperature: 1,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'user-42' },
      stream: true,
    },
  },
  {
    name: 'tool round trip: tool results become a user turn, first in it; parallel calls off; required -> any',
    req: canonical({
      tools: [{ ...WEATHER, cacheControl: { type: 'ephemeral' } }],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'toolu_2', name: 'get_weather', arguments: '' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: '21 C' }] },
            { type: 'tool_result', toolCallId: 'toolu_2', content: [{ type: 'text', text: 'unknown city' }], isError: true, cacheControl: { type: 'ephemeral' } },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      ],
    }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21 C' }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'unknown city' }], is_error: true, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: WEATHER.parameters, cache_control: { type: 'ephemeral' } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    },
  },
  {
    name: 'images: base64, http URL, data: URL (inline bytes), tool result image; consecutive user turns merge',
    req: canonical({
      messages: [
        { role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' }, cacheControl: { type: 'ephemeral' } }] },
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'text', text: '' },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' }, cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    },
  },
  {
    name: 'effort medium -> documented budget; temperature and top_k left out, top_p raised to 0.95',
    maxTokens: 16_000,
    req: canonical({ reasoning: { effort: 'medium' }, temperature: 0.3, topP: 0.5, topK: 5 }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 16_000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: EFFORT_BUDGET.medium },
      top_p: 0.95,
    },
  },
  {
    name: 'explicit budget above max_tokens is cut to max_tokens - 1',
    maxTokens: 2000,
    req: canonical({ reasoning: { budgetTokens: 5000 } }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 2000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: 1999 },
    },
  },
  {
    name: 'no room for the 1024 minimum: thinking left off, temperature kept',
    maxTokens: 1000,
    req: canonical({ reasoning: { effort: 'high' }, temperature: 0.2 }),
    body: { model: 'claude-sonnet-4-20250514', max_tokens: 1000, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], temperature: 0.2 },
  },
  {
    name: 'forced tool choice wins over thinking; named tool choice',
    maxTokens: 8000,
    req: canonical({ reasoning: { effort: 'low' }, tools: [WEATHER], toolChoice: { type: 'tool', name: 'get_weather' } }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 8000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: WEATHER.parameters }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    },
  },
  {
    name: 'tool_choice none; JSON schema mode becomes a system instruction',
    req: canonical({
      tools: [WEATHER],
      toolChoice: { type: 'none' },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } } },
    }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      system: [
        {
          type: 'text',
          text: 'Respond with a single valid JSON object and nothing else. It must conform to this JSON Schema (answer): {"type":"object","properties":{"a":{"type":"string"}}}',
        },
      ],
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: WEATHER.parameters }],
      tool_choice: { type: 'none' },
    },
  },
  {
    name: 'assistant thinking: signed and redacted blocks replayed, unsigned (foreign) thinking dropped',
    req: canonical({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'hmm', signature: 'sig-1' },
            { type: 'thinking', text: '', redacted: 'opaque' },
            { type: 'thinking', text: 'from another provider' },
            { type: 'text', text: 'A' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
      ],
      extensions: { anthropic: { metadata: { user_id: 'm-1' } } },
    }),
    body: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'A' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
      ],
      metadata: { user_id: 'm-1' },
    },
  },
];

describe('toAnthropicRequest', () => {
  it.each(cases)('$name', ({ req, maxTokens, body }) => {
    expect(toAnthropicRequest(req, 'claude-sonnet-4-20250514', maxTokens ?? 1024)).toEqual(body);
  });

  it('refuses n > 1 and tool arguments that are not a JSON object', () => {
    expect(() => toAnthropicRequest(canonical({ n: 2 }), 'm', 10)).toThrow(GatewayError);
    const bad = (args: string) =>
      canonical({ messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: args }] }] });
    for (const args of ['{oops', '[1]', '"x"']) {
      const error = (() => {
        try {
          toAnthropicRequest(bad(args), 'm', 10);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(400);
    }
  });
});

describe('anthropicAdapter.buildRequest', () => {
  const ep: EndpointConfig = { provider: 'anthropic', upstreamModel: 'claude-3-5-haiku-20241022', baseUrl: 'https://api.anthropic.com/v1/', apiKeyEnv: 'ANTHROPIC_KEY_TEST' };

  it('URL, x-api-key from the named env var, pinned anthropic-version, betas; body as JSON', () => {
    const req = canonical({ extensions: { anthropic: { betas: ['prompt-caching-2024-07-31', 'x-2'] } } });
    const built = anthropicAdapter.buildRequest(req, ep, { env: { ANTHROPIC_KEY_TEST: 'sk-ant-test' }, maxTokens: 77, now: new Date() });
    expect(built.url).toBe('https://api.anthropic.com/v1/messages');
    expect(built.headers).toEqual({
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-api-key': 'sk-ant-test',
      'anthropic-beta': 'prompt-caching-2024-07-31,x-2',
    });
    expect(JSON.parse(String(built.body))).toEqual(toAnthropicRequest(req, 'claude-3-5-haiku-20241022', 77));
  });

  it('no key in the environment: no x-api-key header (the provider 401 is mapped)', () => {
    const built = anthropicAdapter.buildRequest(canonical(), ep, { env: {}, maxTokens: 5, now: new Date() });
    expect(built.headers['x-api-key']).toBeUndefined();
  });

  it('has no passthrough: chatRequest throws internal_error; usage maps the usage object', () => {
    expect(anthropicAdapter.capabilities.chatPassthrough).toBe(false);
    expect(() => anthropicAdapter.chatRequest(ep, {})).toThrow(GatewayError);
    expect(anthropicAdapter.usage({ input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 5, cache_creation_input_tokens: 6 })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 5,
      cacheWriteTokens: 6,
      reasoningTokens: 0,
    });
  });
});
