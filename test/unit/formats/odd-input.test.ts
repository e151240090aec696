import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { planCompletions } from '../../../src/formats/completions/decode.js';
import { countTokensPlan } from '../../../src/formats/messages/count-tokens.js';
import { FORMATS } from '../../../src/formats/registry.js';

/**
 * Every decoder answers odd input with a 400, never a crash: each run replaces one value somewhere in a valid
 * body (any depth) with an odd one and expects either a decoded request or a GatewayError 400.
 */
const ODD: unknown[] = [null, undefined, 0, -1, 1.5, 1e308, NaN, '', 'x', true, [], {}, [null], [[[]]], { type: null }, { type: 'text' }, { type: 'image' }, ['x']];

const BODIES: Record<string, Record<string, unknown>> = {
  chat: {
    model: 'm',
    messages: [
      { role: 'system', content: [{ type: 'text', text: 's' }] },
      { role: 'user', content: [{ type: 'text', text: 'u' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==', detail: 'low' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'r' },
    ],
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    tool_choice: { type: 'function', function: { name: 'f' } },
    response_format: { type: 'json_schema', json_schema: { name: 'o', schema: {} } },
    stop: ['a'],
    max_tokens: 5,
    logit_bias: { '1': 1 },
  },
  completions: { model: 'm', prompt: ['p'], max_tokens: 3, logprobs: 2, stop: ['x'], echo: true, n: 1 },
  responses: {
    model: 'm',
    instructions: 'i',
    input: [
      { role: 'user', content: [{ type: 'input_text', text: 'u' }, { type: 'input_image', image_url: 'https://x' }] },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'r' }] },
    ],
    tools: [{ type: 'function', name: 'f', parameters: {} }],
    text: { format: { type: 'json_schema', name: 'o', schema: {} } },
    reasoning: { effort: 'low' },
  },
  messages: {
    model: 'm',
    max_tokens: 2000,
    system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'u' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 'c', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: [{ type: 'text', text: 'r' }] }] },
    ],
    tools: [{ name: 'f', input_schema: { type: 'object' } }],
    tool_choice: { type: 'tool', name: 'f' },
    thinking: { type: 'enabled', budget_tokens: 1024 },
    metadata: { user_id: 'u' },
  },
};

/** Paths of every value in a JSON tree (object keys and array indexes). */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push([...at, i], ...paths(x, [...at, i])));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) out.push([...at, k], ...paths(x, [...at, k]));
  return out;
}

function replaced(body: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

const DECODERS: [string, string, (b: Record<string, unknown>) => unknown][] = [
  ['chat', 'chat', (b) => FORMATS.chat.decode(b)],
  ['completions', 'completions', (b) => planCompletions(b)],
  ['responses', 'responses', (b) => FORMATS.responses.decode(b)],
  ['messages', 'messages', (b) => FORMATS.messages.decode(b)],
  ['count_tokens', 'messages', (b) => countTokensPlan(b)],
];

describe('odd input never crashes a decoder', () => {
  for (const [name, bodyName, decode] of DECODERS) {
    it(`${name}: every value replaced by every odd value`, () => {
      const body = BODIES[bodyName]!;
      expect(() => decode(structuredClone(body))).not.toThrow();
      let refused = 0;
      for (const path of paths(body)) {
        for (const odd of ODD) {
          try {
            decode(replaced(body, path, odd));
          } catch (e) {
            if (!(e instanceof GatewayError) || e.status !== 400) throw new Error(`${path.join('.')} = ${JSON.stringify(odd)}: ${String(e)}`);
            refused++;
          }
        }
      }
      expect(refused).toBeGreaterThan(paths(body).length);
    });
  }
});
