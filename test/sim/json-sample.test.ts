import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { sampleJson, sampleJsonText, schemaFromInstruction } from '../../src/sim/json-sample.js';
import { words } from '../../src/sim/text.js';

const ajv = new Ajv2020({ strict: false });

/** Schemas as SDKs emit them: zod via the AI SDK / openai helpers, strict OpenAI, Gemini's OpenAPI subset. */
const SCHEMAS: [string, Record<string, unknown>][] = [
  ['flat object', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } }, required: ['a'] }],
  ['bounds', { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 7 }, s: { type: 'string', minLength: 12, maxLength: 14 }, m: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 } } }],
  ['arrays and tuples', { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 3 }, tup: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } } }],
  ['enum, const, nullable', { type: 'object', properties: { e: { enum: ['x', 'y'] }, k: { const: 7 }, n: { type: ['string', 'null'] } }, required: ['e', 'k', 'n'], additionalProperties: false }],
  ['refs and unions', { type: 'object', properties: { p: { $ref: '#/$defs/p' }, u: { anyOf: [{ type: 'null' }, { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }] }, all: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] } }, $defs: { p: { type: 'object', properties: { r: { type: 'string', format: 'date-time' } }, required: ['r'] } } }],
  ['recursive', { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 1 } }, required: ['name'] } } }],
];

describe('sampleJson', () => {
  for (const [name, schema] of SCHEMAS) {
    it(`is valid against the schema: ${name}`, () => {
      const value = sampleJson(schema, name);
      expect(ajv.validate(schema, value), `${JSON.stringify(value)} ${ajv.errorsText()}`).toBe(true);
      const text = sampleJsonText(schema, name);
      expect(words(text).join(' ')).toBe(text); // single-spaced: the sim's word tokens give the text back
    });
  }
  it("reads Gemini's OpenAPI schema (capitalised types)", () => {
    expect(sampleJson({ type: 'OBJECT', properties: { n: { type: 'INTEGER' }, s: { type: 'STRING' } } })).toEqual({ n: 42, s: expect.any(String) as string });
  });
  it('plain JSON mode answers an object', () => {
    expect(JSON.parse(sampleJsonText({}))).toBeTypeOf('object');
  });
  it('finds the schema a system instruction embeds, or plain JSON mode, or nothing', () => {
    expect(schemaFromInstruction('Respond with a single valid JSON object and nothing else. It must conform to this JSON Schema (x): {"type":"object","properties":{"a":{"type":"string","description":"a } brace"}}}')).toEqual({
      type: 'object',
      properties: { a: { type: 'string', description: 'a } brace' } },
    });
    expect(schemaFromInstruction('Respond with a single valid JSON object and nothing else.')).toEqual({});
    expect(schemaFromInstruction('Be brief.')).toBeNull();
  });
});
