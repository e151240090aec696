/**
 * Field readers shared by every format's decoder. Each one checks a wire value's type and range and throws a
 * 400 `invalid_request` naming the field (its full path, e.g. `messages[2].content[0].text`) otherwise, so a
 * decoder never crashes on odd input (null where an object goes, numbers where strings go, ...).
 */
import type { CacheControl, ImageSource, JsonObject } from '../canonical/types.js';
import { invalid } from '../errors/gateway-error.js';

export type Body = Record<string, unknown>;

export const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Absent and JSON null mean "not given" for every optional field. */
export const given = (v: unknown): boolean => v !== undefined && v !== null;

export function reqString(v: unknown, path: string, allowEmpty = false): string {
  if (typeof v !== 'string' || (!allowEmpty && v === '')) {
    throw invalid(`${path} is required and must be a ${allowEmpty ? '' : 'non-empty '}string.`, path);
  }
  return v;
}

export function optString(v: unknown, path: string): string | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'string') throw invalid(`${path} must be a string.`, path);
  return v;
}

export function optBool(v: unknown, path: string): boolean | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'boolean') throw invalid(`${path} must be a boolean.`, path);
  return v;
}

export function optNumber(v: unknown, path: string, min: number, max: number): number | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw invalid(`${path} must be a number between ${min} and ${max}.`, path);
  }
  return v;
}

export function optInt(v: unknown, path: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
    throw invalid(`${path} must be an integer ${range}.`, path);
  }
  return v;
}

export function reqObject(v: unknown, path: string): Body {
  if (!isObj(v)) throw invalid(`${path} must be an object.`, path);
  return v;
}

export function reqArray(v: unknown, path: string, nonEmpty = false): unknown[] {
  if (!Array.isArray(v)) throw invalid(`${path} is required and must be an array.`, path);
  if (nonEmpty && v.length === 0) throw invalid(`${path} must not be empty.`, path);
  return v;
}

/**
 * A JSON object from the parsed body. The body came from JSON.parse (depth-capped by the pipeline), so any
 * object in it is JSON; the cast only narrows `unknown` to the JSON type.
 */
export function jsonObject(v: unknown, path: string): JsonObject {
  if (!isObj(v)) throw invalid(`${path} must be a JSON object.`, path);
  return v as JsonObject;
}

/** `stop` of the OpenAI formats: a string or an array of at most `max` strings. */
export function stopList(v: unknown, path: string, max: number): string[] {
  if (!given(v)) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string')) return v as string[];
  throw invalid(`${path} must be a string or an array of up to ${max} strings.`, path);
}

/** An array of strings (messages `stop_sequences`). */
export function stringArray(v: unknown, path: string): string[] {
  if (!given(v)) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw invalid(`${path} must be an array of strings.`, path);
  return v as string[];
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** An image URL as OpenAI formats carry it: `https://...` or a `data:<media type>;base64,<data>` URL. */
export function imageSourceFromUrl(url: unknown, path: string): ImageSource {
  const u = reqString(url, path);
  if (!u.startsWith('data:')) return { kind: 'url', url: u };
  const m = DATA_URL.exec(u);
  if (!m || m[2] === '') throw invalid(`${path} must be an http(s) URL or a data:<media type>;base64,<data> URL.`, path);
  return { kind: 'base64', mediaType: m[1]!, data: m[2]! };
}

/** Anthropic-style `cache_control: {type: 'ephemeral', ttl?: '5m' | '1h'}`. */
export function optCacheControl(v: unknown, path: string): CacheControl | undefined {
  if (!given(v)) return undefined;
  if (!isObj(v) || v.type !== 'ephemeral') throw invalid(`${path} must be {type: "ephemeral"}.`, path);
  if (!given(v.ttl)) return { type: 'ephemeral' };
  if (v.ttl !== '5m' && v.ttl !== '1h') throw invalid(`${path}.ttl must be "5m" or "1h".`, `${path}.ttl`);
  return { type: 'ephemeral', ttl: v.ttl };
}

const DETAILS = new Set(['auto', 'low', 'high']);

export function optDetail(v: unknown, path: string): 'auto' | 'low' | 'high' | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'string' || !DETAILS.has(v)) throw invalid(`${path} must be one of auto, low, high.`, path);
  return v as 'auto' | 'low' | 'high';
}

/** Refuses a field that changes the answer but cannot be honoured on the canonical path. */
export function refuse(b: Body, key: string, why: string): void {
  if (given(b[key])) throw invalid(`${key} is not supported: ${why}`, key);
}
