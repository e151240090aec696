/**
 * A deterministic JSON value valid against a JSON Schema: what the simulated model answers under JSON mode,
 * a response schema, or a tool's parameter schema (operator issue 9: develop against `make run` before
 * having provider keys). Covers the schema keywords SDKs emit (zod's and the AI SDK's JSON Schema, OpenAI
 * strict schemas, Gemini's OpenAPI subset): type (and type lists), properties/required, items, prefixItems,
 * enum, const, anyOf/oneOf/allOf, $ref into $defs/definitions, min/max lengths, items and bounds, formats.
 * String values are single-spaced so `words(text).join(' ')` gives the JSON text back (the sim's tokens).
 */
import { isRecord } from './http.js';
import { digest } from './text.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

const WORDS = 'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon'.split(' ');
const MAX_DEPTH = 12;
/** Below this depth optional properties and extra array items are left out (recursive schemas end). */
const DEEP = 4;

/** `seed` varies string and number choices between calls (tool calls of one answer get different values). */
export function sampleJson(schema: unknown, seed = ''): Json {
  const root = isRecord(schema) ? schema : {};
  return new Sampler(root, seed).value(root, 'value', 0);
}

/** The JSON Schema a simulated JSON answer must follow; `{}` (any object) for plain JSON mode. */
export function sampleJsonText(schema: unknown, seed = ''): string {
  const value = sampleJson(isRecord(schema) && Object.keys(schema).length > 0 ? schema : { type: 'object' }, seed);
  return JSON.stringify(value);
}

class Sampler {
  readonly #root: Schema;
  readonly #seed: string;
  #n = 0;

  constructor(root: Schema, seed: string) {
    this.#root = root;
    this.#seed = seed;
  }

  value(s: Schema, name: string, depth: number): Json {
    if (depth > MAX_DEPTH) return null;
    if (typeof s.$ref === 'string') return this.value(this.#resolve(s.$ref), name, depth + 1);
    if ('const' in s) return s.const as Json;
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as Json;
    if ('default' in s && s.default !== undefined) return s.default as Json;
    if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as Json;
    for (const k of ['anyOf', 'oneOf']) {
      const alts = s[k];
      if (Array.isArray(alts) && alts.length > 0) {
        const pick = alts.find((a) => isRecord(a) && a.type !== 'null') ?? alts[0];
        return this.value({ ...without(s, k), ...(isRecord(pick) ? pick : {}) }, name, depth + 1);
      }
    }
    if (Array.isArray(s.allOf)) {
      const merged = s.allOf.filter(isRecord).reduce<Schema>((acc, part) => mergeSchemas(acc, part), without(s, 'allOf'));
      return this.value(merged, name, depth + 1);
    }
    switch (typeOf(s)) {
      case 'object':
        return this.#object(s, depth);
      case 'array':
        return this.#array(s, name, depth);
      case 'string':
        return this.#string(s, name);
      case 'integer':
        return this.#number(s, true);
      case 'number':
        return this.#number(s, false);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return this.#string(s, name);
    }
  }

  #object(s: Schema, depth: number): Json {
    const out: { [k: string]: Json } = {};
    const props = isRecord(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    // Every declared property (strict schemas require all, optional ones make a fuller example); deep in a
    // recursive schema only the required ones, so the value ends.
    for (const [k, sub] of Object.entries(props)) {
      if (depth < DEEP || required.has(k)) out[k] = this.value(isRecord(sub) ? sub : {}, k, depth + 1);
    }
    if (Array.isArray(s.required)) {
      for (const k of s.required) if (typeof k === 'string' && !(k in out)) out[k] = this.#string({}, k);
    }
    return out;
  }

  #array(s: Schema, name: string, depth: number): Json {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.filter(isRecord) : [];
    const items = isRecord(s.items) ? s.items : {};
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 2);
    // Two items where allowed (a fuller example); deep in a recursive schema the fewest allowed.
    const count = Math.max(prefix.length, depth < DEEP ? Math.min(Math.max(min, 2), max) : min);
    return Array.from({ length: count }, (_, i) => this.value(prefix[i] ?? items, name, depth + 1));
  }

  #string(s: Schema, name: string): string {
    switch (s.format) {
      case 'date-time':
        return '2026-01-02T03:04:05Z';
      case 'date':
        return '2026-01-02';
      case 'time':
        return '03:04:05';
      case 'email':
        return 'someone@example.com';
      case 'uri':
      case 'url':
        return 'https://example.com/';
      case 'uuid':
        return '00000000-0000-4000-8000-000000000000';
      default:
        break;
    }
    const word = WORDS[digest(`${this.#seed}\n${name}\n${this.#n++}`).readUInt8(0) % WORDS.length]!;
    let text = /city|location|place|town/i.test(name) ? 'Paris' : `${word}`;
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
    while (text.length < min) text += `-${word}`;
    return text.slice(0, max);
  }

  #number(s: Schema, integer: boolean): number {
    const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 0.5) : null;
    const hi = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 0.5) : null;
    let v = lo ?? (hi !== null ? Math.min(hi, 0) : 42);
    if (hi !== null && v > hi) v = hi;
    if (integer) v = Math.ceil(v);
    const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : null;
    if (step !== null) v = Math.ceil(v / step) * step;
    return v;
  }

  #resolve(ref: string): Schema {
    if (ref === '#') return this.#root;
    const path = ref.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = this.#root;
    for (const p of path) at = isRecord(at) ? at[p] : undefined;
    return isRecord(at) ? at : {};
  }
}

/** The first non-null type (type lists such as ["string", "null"]); inferred from keywords when absent. */
function typeOf(s: Schema): string | undefined {
  const t = s.type;
  const first = Array.isArray(t) ? (t.find((x) => x !== 'null') ?? t[0]) : t;
  if (typeof first === 'string') return first.toLowerCase(); // Gemini's OpenAPI schema spells types in capitals
  if (isRecord(s.properties)) return 'object';
  if (isRecord(s.items) || Array.isArray(s.prefixItems)) return 'array';
  return undefined;
}

function without(s: Schema, key: string): Schema {
  const { [key]: _drop, ...rest } = s;
  return rest;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isRecord(a.properties) && isRecord(b.properties)) out.properties = { ...a.properties, ...b.properties };
  if (Array.isArray(a.required) && Array.isArray(b.required)) out.required = [...a.required, ...b.required];
  return out;
}

/**
 * The JSON Schema a system instruction asks the answer to follow ("... conform to this JSON Schema (name):
 * {...}"), `{}` when it only asks for a JSON object, null when it asks for neither. Providers without a
 * structured-output parameter get JSON mode as such an instruction; a real model follows it, so does the sim.
 */
export function schemaFromInstruction(text: string): Record<string, unknown> | null {
  const at = text.search(/JSON Schema/i);
  if (at >= 0) {
    const open = text.indexOf('{', at);
    const close = open < 0 ? -1 : balancedEnd(text, open);
    if (close > 0) {
      try {
        const parsed: unknown = JSON.parse(text.slice(open, close + 1));
        if (isRecord(parsed)) return parsed;
      } catch {
        // not a schema after all: fall through to plain JSON mode
      }
    }
  }
  return /\bJSON object\b/i.test(text) ? {} : null;
}

/** Index of the brace closing the one at `open`, skipping braces inside JSON strings; -1 when unbalanced. */
function balancedEnd(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
