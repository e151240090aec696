/** Strict JSON body readers: unknown fields are refused, every failure is a 400 naming its field. */
import { invalid } from '../errors/gateway-error.js';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body as an object holding only `allowed` keys. */
export function objectWith(body: unknown, allowed: readonly string[], what = 'body'): Json {
  if (!isObject(body)) throw invalid(`${what} must be a JSON object`);
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw invalid(`Unknown field ${unknown}.`, unknown);
  return body;
}

function hasControlChar(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export function str(o: Json, k: string, opts: { min?: number; max: number }): string {
  const v = o[k];
  const min = opts.min ?? 1;
  if (typeof v !== 'string' || v.length < min || v.length > opts.max) throw invalid(`${k} must be a string of ${min} to ${opts.max} characters`, k);
  // No control characters: names end up in e-mail bodies, logs and headers (CR/LF injection).
  if (hasControlChar(v)) throw invalid(`${k} must not contain control characters`, k);
  return v;
}

/**
 * Invisible format characters (Unicode category Cf: bidi overrides and isolates U+202A-202E, U+2066-2069,
 * zero-width joiners, the BOM...) and markup characters. A name shown to other people must read as it is
 * stored: `invoice\u202Etxt.exe` displays reversed (security hardening, finding 6).
 */
const DISGUISE = /[\p{Cf}<>]/u;

/** A display name (key, team, organization, channel): a string without control, format or markup characters. */
export function name(o: Json, k: string, opts: { min?: number; max: number }): string {
  const v = str(o, k, opts);
  if (DISGUISE.test(v)) throw invalid(`${k} must not contain <, > or invisible formatting characters (such as bidi overrides)`, k);
  return v;
}

export function optName(o: Json, k: string, opts: { min?: number; max: number }): string | null {
  return o[k] === undefined || o[k] === null ? null : name(o, k, opts);
}

/**
 * Text safe to place in a plain-text view (e-mail, CLI, logs) whatever was stored before validation:
 * control and format characters become visible `\u{...}` escapes.
 */
export function plainText(v: string): string {
  return v.replace(/[\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

export function optStr(o: Json, k: string, opts: { min?: number; max: number }): string | null {
  return o[k] === undefined || o[k] === null ? null : str(o, k, opts);
}

export function optNum(o: Json, k: string, opts: { min: number; max: number; int?: boolean }): number | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < opts.min || v > opts.max || (opts.int === true && !Number.isInteger(v))) {
    throw invalid(`${k} must be ${opts.int === true ? 'an integer' : 'a number'} from ${opts.min} to ${opts.max}`, k);
  }
  return v;
}

export function optBool(o: Json, k: string): boolean | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw invalid(`${k} must be a boolean`, k);
  return v;
}

export function optStrArray(o: Json, k: string, opts: { maxItems: number; maxLen: number; minItems?: number }): string[] | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  const minItems = opts.minItems ?? 0;
  if (!Array.isArray(v) || v.length < minItems || v.length > opts.maxItems) {
    throw invalid(`${k} must be an array of ${minItems} to ${opts.maxItems} strings`, k);
  }
  for (const item of v) {
    if (typeof item !== 'string' || item.length === 0 || item.length > opts.maxLen) {
      throw invalid(`${k} entries must be strings of 1 to ${opts.maxLen} characters`, k);
    }
  }
  return [...new Set(v as string[])];
}

/** An ISO 8601 timestamp in the future, as epoch ms. */
export function optFutureTime(o: Json, k: string, now: number): number | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw invalid(`${k} must be an ISO 8601 timestamp`, k);
  if (ms <= now) throw invalid(`${k} must be in the future`, k);
  return ms;
}

/** A list of ids from a query or body; 400 when absent. */
export function requireId(v: string | null | undefined, name: string): string {
  if (v === null || v === undefined || v === '' || v.length > 100) throw invalid(`${name} is required`, name);
  return v;
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
