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
