import type { FieldSpec } from './schema.js';

/** Tiny field readers for config validation: each records one clear message per bad field. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export class FieldReader {
  readonly problems: string[] = [];

  isObject(v: unknown): v is JsonObject {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  obj(src: unknown, path: string): JsonObject {
    if (src === undefined) return {};
    if (!this.isObject(src)) {
      this.problems.push(`${path}: expected an object`);
      return {};
    }
    return src;
  }

  int(src: JsonObject, key: string, path: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const v = src[key];
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.problems.push(`${path}.${key}: expected an integer in [${min}, ${max}], got ${JSON.stringify(v)}`);
      return def;
    }
    return v;
  }

  num(src: JsonObject, key: string, path: string, def: number, min: number, max: number): number {
    const v = src[key];
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.problems.push(`${path}.${key}: expected a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
      return def;
    }
    return v;
  }

  str(src: JsonObject, key: string, path: string, def: string): string {
    const v = src[key];
    if (v === undefined) return def;
    if (typeof v !== 'string' || v.length === 0) {
      this.problems.push(`${path}.${key}: expected a non-empty string`);
      return def;
    }
    return v;
  }

  optStr(src: JsonObject, key: string, path: string): string | null {
    const v = src[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v.length === 0) {
      this.problems.push(`${path}.${key}: expected a non-empty string or null`);
      return null;
    }
    return v;
  }

  bool(src: JsonObject, key: string, path: string, def: boolean): boolean {
    const v = src[key];
    if (v === undefined) return def;
    if (typeof v !== 'boolean') {
      this.problems.push(`${path}.${key}: expected true or false`);
      return def;
    }
    return v;
  }

  oneOf<T extends string>(src: JsonObject, key: string, path: string, def: T, allowed: readonly T[]): T {
    const v = src[key];
    if (v === undefined) return def;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${path}.${key}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
      return def;
    }
    return v as T;
  }

  strList(src: JsonObject, key: string, path: string, def: string[]): string[] {
    const v = src[key];
    if (v === undefined) return def;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.length > 0)) {
      this.problems.push(`${path}.${key}: expected an array of non-empty strings`);
      return def;
    }
    return v as string[];
  }

  /** Merges an environment variable (string) into a JSON object field, converting numbers and booleans. */
  fromEnv(env: NodeJS.ProcessEnv, name: string, target: JsonObject, key: string, kind: 'int' | 'str' | 'bool'): void {
    const raw = env[name];
    if (raw === undefined || raw === '') return;
    if (kind === 'str') target[key] = raw;
    else if (kind === 'bool') {
      if (raw !== 'true' && raw !== 'false' && raw !== '1' && raw !== '0') {
        this.problems.push(`${name}: expected true/false, got ${JSON.stringify(raw)}`);
      } else target[key] = raw === 'true' || raw === '1';
    } else {
      const n = Number(raw);
      if (!Number.isInteger(n)) this.problems.push(`${name}: expected an integer, got ${JSON.stringify(raw)}`);
      else target[key] = n;
    }
  }
}

/** Levenshtein distance, for "did you mean" hints on misspelled names (short strings only). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The known name within two edits of `name` (case-insensitive), closest first; null when there is none. */
export function closestName(name: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = 3;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` when one known name is within two edits of `name`, else ''. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const best = closestName(name, known);
  return best === null ? '' : ` (did you mean ${JSON.stringify(best)}?)`;
}

/**
 * Lists every key of `value` that `spec` (src/config/schema.ts CONFIG_FIELDS) does not allow, as
 * `models[1].endpoints[0].provder: unknown field`. Type errors are the readers' job; this only walks shapes
 * that match the spec.
 */
export function unknownFields(value: unknown, spec: FieldSpec, path: string, out: string[] = []): string[] {
  if (spec === true || spec === 'open') return out;
  if (Array.isArray(spec)) {
    if (Array.isArray(value)) value.forEach((v, i) => unknownFields(v, spec[0] as FieldSpec, `${path}[${i}]`, out));
    return out;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  const fields = spec as { readonly [key: string]: FieldSpec };
  for (const [k, v] of Object.entries(value)) {
    const p = path ? `${path}.${k}` : k;
    const sub = Object.hasOwn(fields, k) ? fields[k] : undefined;
    if (sub === undefined) out.push(`${p}: unknown field${didYouMean(k, Object.keys(fields))}`);
    else unknownFields(v, sub, p, out);
  }
  return out;
}
