import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/types.js';
import { chatFormat } from '../../../src/formats/chat-completions/index.js';
import { canon, expectInvalid } from './helpers.js';

const PNG_B64 = 'iVBORw0KGgo=';

const cases: { name: string; body: Record<string, unknown>; want: CanonicalRequest }[] = [
  {
    name: 'system and developer instructions apart, user text with a name',
    body: {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Rule 1' }, { type: 'text', text: 'Rule 2' }] },
        { role: 'user', content: 'Hi', name: 'bob' },
      ],
    },
    want: canon({
      system: [
        { role: 'system', text: 'Be brief.' },
        { role: 'developer', text: 'Rule 1' },
        { role: 'developer', text: 'Rule 2' },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }], name: 'bob' }],
    }),
  },
  {
    name: 'image_url parts: a URL with detail and a base64 data URL',
    body: {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'low' } },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } },
          ],
        },
      ],
    },
    want: canon({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image', source: { kind: 'url', url: 'https://x.test/a.png' }, detail: 'low' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG_B64 } },
          ],
        },
      ],
    }),
  },
  {
    name: 'a tool round trip: assistant tool_calls with null content, two tool results merged into one tool turn',
    body: {
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18C' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '24C' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Paris 18, Rome 24.' }, { type: 'refusal', refusal: 'No more.' }] },
      ],
    },
    want: canon({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: '18C' }] },
            { type: 'tool_result', toolCallId: 'call_2', content: [{ type: 'text', text: '24C' }] },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Paris 18, Rome 24.' },
            { type: 'text', text: 'No more.' },
          ],
        },
      ],
    }),
  },
  {
    name: 'every request parameter',
    body: {
      model: 'm',
      messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
        { type: 'function', function: { name: 'noargs' } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
      stop: 'END',
      temperature: 0.2,
      top_p: 0.9,
      presence_penalty: -1,
      frequency_penalty: 1.5,
      seed: 42,
      reasoning_effort: 'high',
      max_tokens: 50,
      max_completion_tokens: 70,
      n: 2,
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
      logprobs: true,
      top_logprobs: 3,
      logit_bias: { '50256': -100 },
      store: false,
    },
    want: {
      ...canon({
        messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '' }] }],
        tools: [
          { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
          { name: 'noargs', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { type: 'tool', name: 'weather' },
        maxTokens: 70,
        stop: ['END'],
        n: 2,
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
        reasoning: { effort: 'high' },
        stream: true,
        user: 'u-1',
        extensions: { openai: { logprobs: true, topLogprobs: 3, logitBias: { '50256': -100 }, store: false } },
      }),
      parallelToolCalls: false,
      temperature: 0.2,
      topP: 0.9,
      presencePenalty: -1,
      frequencyPenalty: 1.5,
      seed: 42,
    },
  },
  {
    name: 'json_object mode, tool_choice required, reasoning_effort none, stop array, nulls as absent',
    body: {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
      tool_choice: 'required',
      reasoning_effort: 'none',
      stop: ['a', 'b'],
      temperature: null,
      user: null,
      max_tokens: null,
    },
    want: canon({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      responseFormat: { type: 'json_object' },
      toolChoice: { type: 'required' },
      stop: ['a', 'b'],
    }),
  },
];

describe('chat decode', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(chatFormat.decode(structuredClone(c.body))).toStrictEqual(c.want);
    });
  }
});

describe('chat decode refusals', () => {
  const ok = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
  const errors: [string, Record<string, unknown>, string | undefined][] = [
    ['missing model', { messages: ok.messages }, 'model'],
    ['model a number', { ...ok, model: 7 }, 'model'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'messages'],
    ['empty messages', { model: 'm', messages: [] }, 'messages'],
    ['message null', { model: 'm', messages: [null] }, 'messages[0]'],
    ['bad role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    ['function role', { model: 'm', messages: [{ role: 'function', name: 'f', content: 'x' }] }, 'messages[0].role'],
    ['null user content', { model: 'm', messages: [{ role: 'user', content: null }] }, 'messages[0].content'],
    ['numeric content', { model: 'm', messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
    ['part without type', { model: 'm', messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages[0].content'],
    ['audio part', { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, 'messages[0].content[0].type'],
    ['image_url not an object', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: 3 }] }] }, 'messages[0].content[0].image_url'],
    ['image url missing', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url'],
    ['data URL not base64', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }] }] }, 'messages[0].content[0].image_url.url'],
    ['bad detail', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x', detail: 'max' } }] }] }, 'messages[0].content[0].image_url.detail'],
    ['image in system', { model: 'm', messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }] }, 'messages[0].content[0].type'],
    ['tool without tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    ['tool call without id', { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] }] }, 'messages[0].tool_calls[0].id'],
    ['tool call arguments object', { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { name: 'f', arguments: {} } }] }] }, 'messages[0].tool_calls[0].function.arguments'],
    ['tool call without function', { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c' }] }] }, 'messages[0].tool_calls[0].function'],
    ['temperature 3', { ...ok, temperature: 3 }, 'temperature'],
    ['temperature string', { ...ok, temperature: '1' }, 'temperature'],
    ['top_p 2', { ...ok, top_p: 2 }, 'top_p'],
    ['presence_penalty -3', { ...ok, presence_penalty: -3 }, 'presence_penalty'],
    ['frequency_penalty 2.5', { ...ok, frequency_penalty: 2.5 }, 'frequency_penalty'],
    ['max_tokens 0', { ...ok, max_tokens: 0 }, 'max_tokens'],
    ['max_completion_tokens 1.5', { ...ok, max_completion_tokens: 1.5 }, 'max_completion_tokens'],
    ['n 0', { ...ok, n: 0 }, 'n'],
    ['n 129', { ...ok, n: 129 }, 'n'],
    ['seed 1.5', { ...ok, seed: 1.5 }, 'seed'],
    ['stream "yes"', { ...ok, stream: 'yes' }, 'stream'],
    ['five stops', { ...ok, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['stop number', { ...ok, stop: 4 }, 'stop'],
    ['response_format string', { ...ok, response_format: 'json' }, 'response_format'],
    ['response_format unknown type', { ...ok, response_format: { type: 'xml' } }, 'response_format.type'],
    ['json_schema without name', { ...ok, response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
    ['tools not an array', { ...ok, tools: {} }, 'tools'],
    ['tool without function', { ...ok, tools: [{ type: 'function' }] }, 'tools'],
    ['tool parameters an array', { ...ok, tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }, 'tools[0].function.parameters'],
    ['tool_choice unknown string', { ...ok, tool_choice: 'anything' }, 'tool_choice'],
    ['tool_choice object of another type', { ...ok, tool_choice: { type: 'allowed_tools' } }, 'tool_choice'],
    ['tool_choice function without name', { ...ok, tool_choice: { type: 'function', function: {} } }, 'tool_choice.function.name'],
    ['user too long', { ...ok, user: 'u'.repeat(201) }, 'user'],
    ['user a number', { ...ok, user: 5 }, 'user'],
    ['reasoning_effort extreme', { ...ok, reasoning_effort: 'extreme' }, 'reasoning_effort'],
    ['top_logprobs 21', { ...ok, top_logprobs: 21 }, 'top_logprobs'],
    ['logit_bias values', { ...ok, logit_bias: { '1': 'x' } }, 'logit_bias'],
    ['deprecated functions', { ...ok, functions: [{ name: 'f' }] }, 'functions'],
    ['audio output', { ...ok, audio: { voice: 'alloy' } }, 'audio'],
    ['parallel_tool_calls string', { ...ok, parallel_tool_calls: 'no' }, 'parallel_tool_calls'],
  ];
  for (const [name, body, param] of errors) {
    it(`400 ${name}`, () => expectInvalid(() => chatFormat.decode(body), param));
  }
});
