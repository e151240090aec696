import { describe, expect, it } from 'vitest';
import { scanJson, spliceBody } from '../../../src/pipeline/json-bytes.js';

const splice = (body: string, model: string, usage = false): unknown => {
  const raw = Buffer.from(body);
  const out = spliceBody(raw, model, usage, (JSON.parse(body) as Record<string, unknown>).stream_options !== undefined);
  return out === null ? null : JSON.parse(out.toString());
};

describe('passthrough body splice', () => {
  const cases: [string, string, boolean, unknown][] = [
    ['{"model":"gpt-4o-mini","messages":[]}', 'gpt-4o-mini-2024', false, { model: 'gpt-4o-mini-2024', messages: [] }],
    ['{ "messages": [{"role":"user","content":"the \\"model\\": \\"x\\""}], "model" : "a" }', 'b', false, {
      messages: [{ role: 'user', content: 'the "model": "x"' }],
      model: 'b',
    }],
    ['{"tools":[{"function":{"parameters":{"properties":{"model":{"type":"string"}}}}}],"model":"a"}', 'z', false, {
      tools: [{ function: { parameters: { properties: { model: { type: 'string' } } } } }],
      model: 'z',
    }],
    ['{"model":"a","stream":true,"messages":[]}', 'q"uote', true, { stream_options: { include_usage: true }, model: 'q"uote', stream: true, messages: [] }],
    ['{"model":"a","stream":true,"stream_options":{"include_usage":false}}', 'b', true, null],
    ['{"messages":[{"model":"nested"}]}', 'b', false, null],
  ];
  for (const [body, model, usage, want] of cases) {
    it(`${body.slice(0, 50)} -> ${JSON.stringify(want)?.slice(0, 40)}`, () => {
      expect(splice(body, model, usage)).toEqual(want);
    });
  }

  it('finds only the top-level key, the last one when duplicated (as JSON.parse keeps it)', () => {
    const raw = Buffer.from('{"a":{"model":"in"},"model":"first","model":"out"}');
    const span = scanJson(raw).modelSpan!;
    expect(raw.subarray(span[0], span[1]).toString()).toBe('"out"');
  });

  it('finds a key repeated in one object, escaped spellings included; the same key in sibling objects is fine', () => {
    const dup = (text: string): string | null => scanJson(Buffer.from(text)).duplicateKey;
    expect(dup('{"model":"a","model":"b"}')).toBe('model');
    expect(dup('{"model":"a","m\\u006fdel":"b"}')).toBe('model');
    expect(dup('{"messages":[{"role":"user","content":"x","content":"y"}]}')).toBe('content');
    expect(dup('{"messages":[{"role":"user"},{"role":"assistant"}],"a":{"role":1}}')).toBeNull();
    expect(dup('{"a":"model","b":["model","model"],"model":"c"}')).toBeNull();
    expect(dup('{"a":{"x":1},"b":{"x":2,"y":{"x":3}}}')).toBeNull();
  });

  it('checks the nesting depth in the same pass, strings skipped', () => {
    expect(scanJson(Buffer.from('{"a":[[["x"]]]}'), 3).tooDeep).toBe(true);
    expect(scanJson(Buffer.from('{"a":[["[[[[[["]]}'), 3).tooDeep).toBe(false);
  });
});
