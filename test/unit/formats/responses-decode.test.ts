import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/types.js';
import { responsesFormat } from '../../../src/formats/responses/index.js';
import { canon, expectInvalid } from './helpers.js';

const cases: { name: string; body: Record<string, unknown>; want: CanonicalRequest }[] = [
  {
    name: 'input string and instructions',
    body: { model: 'm', input: 'Hi', instructions: 'Be brief.' },
    want: canon({ system: [{ role: 'system', text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }),
  },
  {
    name: 'message items (typed and short form), images, developer text, reasoning items dropped',
    body: {
      model: 'm',
      input: [
        { role: 'developer', content: 'Rules.' },
        { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'More rules.' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'https://x.test/a.jpg', detail: 'high' },
            { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A cat.', annotations: [] }] },
        { role: 'user', content: 'Thanks' },
      ],
    },
    want: canon({
      system: [
        { role: 'developer', text: 'Rules.' },
        { role: 'system', text: 'More rules.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { kind: 'url', url: 'https://x.test/a.jpg' }, detail: 'high' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    }),
  },
  {
    name: 'a tool round trip: assistant text + function calls in one turn, outputs in one tool turn',
    body: {
      model: 'm',
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '24C' }] },
      ],
      tools: [
        { type: 'function', name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
        { type: 'function', name: 'noargs', parameters: null },
      ],
      tool_choice: { type: 'function', name: 'weather' },
      parallel_tool_calls: true,
    },
    want: {
      ...canon({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
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
        ],
        tools: [
          { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
          { name: 'noargs', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { type: 'tool', name: 'weather' },
      }),
      parallelToolCalls: true,
    },
  },
  {
    name: 'sampling, output cap, json schema text format, reasoning, user, stream',
    body: {
      model: 'm',
      input: 'x',
      temperature: 1.7,
      top_p: 0.3,
      max_output_tokens: 256,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      reasoning: { effort: 'low', summary: 'auto' },
      user: 'u-9',
      stream: true,
      store: false,
      tool_choice: 'none',
      metadata: { a: 'b' },
    },
    want: {
      ...canon({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
        maxTokens: 256,
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
        reasoning: { effort: 'low' },
        user: 'u-9',
        stream: true,
        toolChoice: { type: 'none' },
        extensions: { openai: { store: false } },
      }),
      temperature: 1.7,
      topP: 0.3,
    },
  },
];

describe('responses decode', () => {
  for (const c of cases) {
    it(c.name, () => expect(responsesFormat.decode(structuredClone(c.body))).toStrictEqual(c.want));
  }

  const ok = { model: 'm', input: 'x' };
  const errors: [string, Record<string, unknown>, string][] = [
    ['missing model', { input: 'x' }, 'model'],
    ['missing input', { model: 'm' }, 'input'],
    ['input a number', { model: 'm', input: 3 }, 'input'],
    ['empty input array', { model: 'm', input: [] }, 'input'],
    ['only reasoning items', { model: 'm', input: [{ type: 'reasoning', summary: [] }] }, 'input'],
    ['item null', { model: 'm', input: [null] }, 'input[0]'],
    ['item of unknown type', { model: 'm', input: [{ type: 'item_reference', id: 'x' }] }, 'input[0].type'],
    ['message with a bad role', { model: 'm', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role'],
    ['message content a number', { model: 'm', input: [{ role: 'user', content: 1 }] }, 'input[0].content'],
    ['input_text without text', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, 'input[0].content[0].text'],
    ['input_file part', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }, 'input[0].content[0].type'],
    ['input_image by file_id', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] }, 'input[0].content[0].file_id'],
    ['input_image bad detail', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x', detail: 'x' }] }] }, 'input[0].content[0].detail'],
    ['image in a system message', { model: 'm', input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x' }] }] }, 'input[0].content'],
    ['function_call without call_id', { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
    ['function_call arguments object', { model: 'm', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }] }, 'input[0].arguments'],
    ['function_call_output number', { model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 5 }] }, 'input[0].output'],
    ['instructions a number', { ...ok, instructions: 1 }, 'instructions'],
    ['hosted web_search tool', { ...ok, tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    ['function tool without name', { ...ok, tools: [{ type: 'function', parameters: {} }] }, 'tools[0].name'],
    ['tools an object', { ...ok, tools: {} }, 'tools'],
    ['tool_choice hosted tool', { ...ok, tool_choice: { type: 'web_search_preview' } }, 'tool_choice'],
    ['temperature 2.5', { ...ok, temperature: 2.5 }, 'temperature'],
    ['top_p -1', { ...ok, top_p: -1 }, 'top_p'],
    ['max_output_tokens 0', { ...ok, max_output_tokens: 0 }, 'max_output_tokens'],
    ['max_output_tokens 1.5', { ...ok, max_output_tokens: 1.5 }, 'max_output_tokens'],
    ['stream "true"', { ...ok, stream: 'true' }, 'stream'],
    ['text.format unknown', { ...ok, text: { format: { type: 'xml' } } }, 'text.format.type'],
    ['json_schema without name', { ...ok, text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
    ['reasoning effort bad', { ...ok, reasoning: { effort: 'max' } }, 'reasoning.effort'],
    ['reasoning a string', { ...ok, reasoning: 'high' }, 'reasoning'],
    ['previous_response_id', { ...ok, previous_response_id: 'resp_1' }, 'previous_response_id'],
    ['conversation', { ...ok, conversation: 'conv_1' }, 'conversation'],
    ['background', { ...ok, background: true }, 'background'],
    ['parallel_tool_calls string', { ...ok, parallel_tool_calls: 'yes' }, 'parallel_tool_calls'],
  ];
  for (const [name, body, param] of errors) {
    it(`400 ${name}`, () => expectInvalid(() => responsesFormat.decode(body), param));
  }
});
