import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/types.js';
import { messagesFormat } from '../../../src/formats/messages/index.js';
import { canon, expectInvalid } from './helpers.js';

const cases: { name: string; body: Record<string, unknown>; want: CanonicalRequest }[] = [
  {
    name: 'string system and content, metadata.user_id, stop_sequences, sampling',
    body: {
      model: 'm',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      metadata: { user_id: 'u-1' },
      stop_sequences: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stream: true,
    },
    want: {
      ...canon({
        system: [{ role: 'system', text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        maxTokens: 100,
        stop: ['END'],
        user: 'u-1',
        stream: true,
      }),
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
    },
  },
  {
    name: 'system blocks and content blocks with cache controls, base64 and URL images',
    body: {
      model: 'm',
      max_tokens: 10,
      system: [
        { type: 'text', text: 'Long context', cache_control: { type: 'ephemeral', ttl: '1h' } },
        { type: 'text', text: 'Tail' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' }, cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.jpg' } },
            { type: 'text', text: 'What is this?', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    },
    want: canon({
      system: [
        { role: 'system', text: 'Long context', cacheControl: { type: 'ephemeral', ttl: '1h' } },
        { role: 'system', text: 'Tail' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' }, cacheControl: { type: 'ephemeral' } },
            { type: 'image', source: { kind: 'url', url: 'https://x.test/a.jpg' } },
            { type: 'text', text: 'What is this?', cacheControl: { type: 'ephemeral' } },
          ],
        },
      ],
      maxTokens: 10,
    }),
  },
  {
    name: 'a tool round trip with thinking: tool_result blocks become a tool turn, the text after them a user turn',
    body: {
      model: 'm',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [
        { name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
        { type: 'custom', name: 'noop', input_schema: { type: 'object' } },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Use the tool.', signature: 'sig==' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'err' }], is_error: true, cache_control: { type: 'ephemeral' } },
            { type: 'tool_result', tool_use_id: 'toolu_3' },
            { type: 'text', text: 'And Rome?' },
          ],
        },
      ],
    },
    want: {
      ...canon({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'Use the tool.', signature: 'sig==' },
              { type: 'thinking', text: '', redacted: 'opaque' },
              { type: 'text', text: 'Checking.' },
              { type: 'tool_call', id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: '18C' }] },
              { type: 'tool_result', toolCallId: 'toolu_2', content: [{ type: 'text', text: 'err' }], isError: true, cacheControl: { type: 'ephemeral' } },
              { type: 'tool_result', toolCallId: 'toolu_3', content: [] },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'And Rome?' }] },
        ],
        tools: [
          { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, cacheControl: { type: 'ephemeral' } },
          { name: 'noop', parameters: { type: 'object' } },
        ],
        toolChoice: { type: 'required' },
        maxTokens: 2048,
        reasoning: { budgetTokens: 1024 },
      }),
      parallelToolCalls: false,
    },
  },
  {
    name: 'tool_choice tool and none, thinking disabled',
    body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [] }], tool_choice: { type: 'tool', name: 'f' }, thinking: { type: 'disabled' } },
    want: canon({ messages: [{ role: 'user', content: [] }], toolChoice: { type: 'tool', name: 'f' }, maxTokens: 5 }),
  },
];

describe('messages decode', () => {
  for (const c of cases) {
    it(c.name, () => expect(messagesFormat.decode(structuredClone(c.body))).toStrictEqual(c.want));
  }

  const ok = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
  const msg = (content: unknown, role = 'user') => ({ ...ok, messages: [{ role, content }] });
  const errors: [string, Record<string, unknown>, string][] = [
    ['missing max_tokens', { model: 'm', messages: ok.messages }, 'max_tokens'],
    ['max_tokens null', { ...ok, max_tokens: null }, 'max_tokens'],
    ['max_tokens 0', { ...ok, max_tokens: 0 }, 'max_tokens'],
    ['max_tokens "10"', { ...ok, max_tokens: '10' }, 'max_tokens'],
    ['missing model', { max_tokens: 10, messages: ok.messages }, 'model'],
    ['missing messages', { model: 'm', max_tokens: 10 }, 'messages'],
    ['empty messages', { ...ok, messages: [] }, 'messages'],
    ['system role in messages', { ...ok, messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role'],
    ['content null', msg(null), 'messages[0].content'],
    ['content a number', msg(7), 'messages[0].content'],
    ['block null', msg([null]), 'messages[0].content[0]'],
    ['text block without text', msg([{ type: 'text' }]), 'messages[0].content[0].text'],
    ['document block', msg([{ type: 'document', source: {} }]), 'messages[0].content[0].type'],
    ['image media type', msg([{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'x' } }]), 'messages[0].content[0].source.media_type'],
    ['image source type', msg([{ type: 'image', source: { type: 'file', file_id: 'f' } }]), 'messages[0].content[0].source.type'],
    ['image without data', msg([{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }]), 'messages[0].content[0].source.data'],
    ['bad cache_control', msg([{ type: 'text', text: 'x', cache_control: { type: 'forever' } }]), 'messages[0].content[0].cache_control'],
    ['bad cache ttl', msg([{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '2h' } }]), 'messages[0].content[0].cache_control.ttl'],
    ['tool_result without id', msg([{ type: 'tool_result', content: 'x' }]), 'messages[0].content[0].tool_use_id'],
    ['tool_result content a number', msg([{ type: 'tool_result', tool_use_id: 't', content: 1 }]), 'messages[0].content[0].content'],
    ['tool_result with a tool_use inside', msg([{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_use' }] }]), 'messages[0].content[0].content[0].type'],
    ['tool_result is_error string', msg([{ type: 'tool_result', tool_use_id: 't', is_error: 'yes' }]), 'messages[0].content[0].is_error'],
    ['tool_use in a user turn', msg([{ type: 'tool_use', id: 't', name: 'f', input: {} }]), 'messages[0].content[0].type'],
    ['tool_result in an assistant turn', msg([{ type: 'tool_result', tool_use_id: 't' }], 'assistant'), 'messages[0].content[0].type'],
    ['tool_use input a string', msg([{ type: 'tool_use', id: 't', name: 'f', input: '{}' }], 'assistant'), 'messages[0].content[0].input'],
    ['tool_use without name', msg([{ type: 'tool_use', id: 't', input: {} }], 'assistant'), 'messages[0].content[0].name'],
    ['thinking without text', msg([{ type: 'thinking', signature: 's' }], 'assistant'), 'messages[0].content[0].thinking'],
    ['redacted_thinking without data', msg([{ type: 'redacted_thinking' }], 'assistant'), 'messages[0].content[0].data'],
    ['system a number', { ...ok, system: 3 }, 'system'],
    ['system block not text', { ...ok, system: [{ type: 'image' }] }, 'system[0].type'],
    ['temperature 1.5', { ...ok, temperature: 1.5 }, 'temperature'],
    ['temperature -0.1', { ...ok, temperature: -0.1 }, 'temperature'],
    ['top_p 2', { ...ok, top_p: 2 }, 'top_p'],
    ['top_k 1.5', { ...ok, top_k: 1.5 }, 'top_k'],
    ['stop_sequences a string', { ...ok, stop_sequences: 'END' }, 'stop_sequences'],
    ['stop_sequences numbers', { ...ok, stop_sequences: [1] }, 'stop_sequences'],
    ['metadata a string', { ...ok, metadata: 'u' }, 'metadata'],
    ['metadata.user_id a number', { ...ok, metadata: { user_id: 1 } }, 'metadata.user_id'],
    ['server tool', { ...ok, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
    ['tool without input_schema', { ...ok, tools: [{ name: 'f' }] }, 'tools[0].input_schema'],
    ['tool without name', { ...ok, tools: [{ input_schema: {} }] }, 'tools[0].name'],
    ['tool_choice a string', { ...ok, tool_choice: 'auto' }, 'tool_choice'],
    ['tool_choice required', { ...ok, tool_choice: { type: 'required' } }, 'tool_choice.type'],
    ['tool_choice tool without name', { ...ok, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
    ['thinking without budget', { ...ok, thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
    ['thinking budget below 1024', { ...ok, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 512 } }, 'thinking.budget_tokens'],
    ['thinking budget not below max_tokens', { ...ok, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 } }, 'thinking.budget_tokens'],
    ['thinking type unknown', { ...ok, thinking: { type: 'on' } }, 'thinking.type'],
    ['stream "yes"', { ...ok, stream: 'yes' }, 'stream'],
    ['mcp_servers', { ...ok, mcp_servers: [{}] }, 'mcp_servers'],
  ];
  for (const [name, body, param] of errors) {
    it(`400 ${name}`, () => expectInvalid(() => messagesFormat.decode(body), param));
  }
});
