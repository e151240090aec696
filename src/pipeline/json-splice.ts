/**
 * Byte-level edits of a JSON object body for the passthrough: replace the top-level "model" value and add
 * `"stream_options":{"include_usage":true}` without parsing and re-serialising the whole body (a prompt of
 * 100 KB would otherwise be stringified again on every request).
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const MODEL = Buffer.from('"model"');

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** End (exclusive) of the JSON string starting at `i` (a quote), or -1. */
function stringEnd(buf: Uint8Array, i: number): number {
  for (let j = i + 1; j < buf.length; j++) {
    const c = buf[j]!;
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** Byte span [start, end) of the top-level "model" string value (quotes included), or null. */
export function topLevelModelSpan(buf: Uint8Array): [number, number] | null {
  let depth = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      const end = stringEnd(buf, i);
      if (end < 0) return null;
      if (depth === 1 && end - i === MODEL.length && Buffer.compare(buf.subarray(i, end), MODEL) === 0) {
        let k = end;
        while (k < buf.length && isSpace(buf[k]!)) k++;
        if (buf[k] === COLON) {
          k++;
          while (k < buf.length && isSpace(buf[k]!)) k++;
          if (buf[k] !== QUOTE) return null;
          const vEnd = stringEnd(buf, k);
          return vEnd < 0 ? null : [k, vEnd];
        }
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return null;
}

/**
 * The body with the top-level model replaced and, when asked, stream_options.include_usage added (only for
 * bodies without stream_options). null when the body's shape does not allow a safe splice.
 */
export function spliceBody(raw: Buffer, model: string, addStreamUsage: boolean, hasStreamOptions: boolean): Buffer | null {
  const span = topLevelModelSpan(raw);
  if (!span) return null;
  if (addStreamUsage && hasStreamOptions) return null;
  const value = Buffer.from(JSON.stringify(model));
  const parts: Buffer[] = [];
  let from = 0;
  if (addStreamUsage) {
    const open = raw.indexOf(OPEN_BRACE);
    if (open < 0 || open > span[0]) return null;
    parts.push(raw.subarray(0, open + 1), Buffer.from('"stream_options":{"include_usage":true},'));
    from = open + 1;
  }
  parts.push(raw.subarray(from, span[0]), value, raw.subarray(span[1]));
  return Buffer.concat(parts);
}
