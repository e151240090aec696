import { describe, expect, it } from 'vitest';
import { countMessages, promptImages, promptTexts } from '../../../src/canonical/prompt-text.js';
import { FORMATS } from '../../../src/formats/registry.js';
import { canon } from './helpers.js';

/**
 * One tool round trip spelled in each client format. The canonical conversation must be the same whichever
 * format it came in: that is what lets any client format reach any upstream.
 */
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const chat = {
  model: 'm',
  max_tokens: 300,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '18C' },
  ],
  tools: [{ type: 'function', function: { name: 'weather', description: 'Current weather', parameters: schema } }],
  tool_choice: 'auto',
};

const responses = {
  model: 'm',
  max_output_tokens: 300,
  instructions: 'You are terse.',
  input: [
    { role: 'user', content: 'Weather in Paris?' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '18C' },
  ],
  tools: [{ type: 'function', name: 'weather', description: 'Current weather', parameters: schema }],
  tool_choice: 'auto',
};

const messages = {
  model: 'm',
  max_tokens: 300,
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '18C' }] },
  ],
  tools: [{ name: 'weather', description: 'Current weather', input_schema: schema }],
  tool_choice: { type: 'auto' },
};

const want = canon({
  system: [{ role: 'system', text: 'You are terse.' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: '18C' }] }] },
  ],
  tools: [{ name: 'weather', description: 'Current weather', parameters: schema }],
  toolChoice: { type: 'auto' },
  maxTokens: 300,
});

describe('one conversation, three wire formats, one canonical request', () => {
  it.each([
    ['chat', chat],
    ['responses', responses],
    ['messages', messages],
  ] as const)('%s', (name, body) => {
    expect(FORMATS[name].decode(structuredClone(body))).toStrictEqual(want);
  });

  it('the registry names every format', () => {
    expect(Object.entries(FORMATS).map(([k, f]) => [k, f.name])).toEqual([
      ['chat', 'chat'],
      ['completions', 'completions'],
      ['responses', 'responses'],
      ['messages', 'messages'],
    ]);
  });
});

describe('prompt texts', () => {
  it('system, message text, tool call arguments, tool results, tool schemas', () => {
    expect(promptTexts(want)).toStrictEqual([
      'You are terse.',
      'Weather in Paris?',
      'Checking.',
      '{"city":"Paris"}',
      '18C',
      JSON.stringify({ name: 'weather', description: 'Current weather', parameters: schema }),
    ]);
    expect(countMessages(want)).toBe(4);
  });

  it('thinking is left out, a json_schema response format is in, images are listed apart', () => {
    const req = canon({
      messages: [
        { role: 'assistant', content: [{ type: 'thinking', text: 'secret', signature: 's' }, { type: 'text', text: 'A' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'a', content: [{ type: 'image', source: { kind: 'url', url: 'u2' } }] },
            { type: 'tool_result', toolCallId: 'b', content: [] },
          ],
        },
        { role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'u1' } }] },
      ],
      tools: [{ name: 'f', parameters: {} }],
      responseFormat: { type: 'json_schema', name: 'o', schema: { type: 'object' } },
    });
    expect(promptTexts(req)).toStrictEqual(['A', '{"name":"f","parameters":{}}', '{"type":"object"}']);
    expect(promptImages(req).map((i) => (i.source.kind === 'url' ? i.source.url : ''))).toEqual(['u2', 'u1']);
    expect(countMessages(req)).toBe(4);
  });
});
