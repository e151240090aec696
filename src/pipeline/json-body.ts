import { invalid } from '../errors/gateway-error.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Nesting depth of a JSON text, scanning bytes (strings skipped); stops early past `cap`. */
export function jsonDepthExceeds(buf: Uint8Array, cap: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > cap) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

export type JsonRecord = Record<string, unknown>;

/** Parses a JSON object body: 400 for empty, malformed, non-object or too deeply nested bodies. */
export function parseJsonObject(body: Buffer, maxDepth: number): JsonRecord {
  if (body.length === 0) throw invalid('Request body is empty; a JSON object is required.');
  if (jsonDepthExceeds(body, maxDepth)) throw invalid(`JSON nesting exceeds the maximum depth of ${maxDepth}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw invalid(`Malformed JSON body: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('Request body must be a JSON object.');
  }
  return parsed as JsonRecord;
}
