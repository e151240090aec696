/**
 * Byte-level work on JSON request and response bodies, one scan each: the nesting-depth check, and the span
 * of the top-level "model" value so the passthrough can replace it (and add
 * `"stream_options":{"include_usage":true}`) without parsing and re-serialising the whole body.
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

export interface JsonScan {
  /** Nesting went deeper than the cap (the scan stopped there). */
  tooDeep: boolean;
  /** [start, end) of the last top-level "model" string value, quotes included (the one JSON.parse keeps). */
  modelSpan: [number, number] | null;
}

/** One pass over a JSON text: depth check and the top-level model value. Strings are skipped whole. */
export function scanJson(buf: Uint8Array, maxDepth = Number.POSITIVE_INFINITY): JsonScan {
  let depth = 0;
  let modelSpan: [number, number] | null = null;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      const end = stringEnd(buf, i);
      if (end < 0) break;
      if (depth === 1 && end - i === MODEL.length && Buffer.compare(buf.subarray(i, end), MODEL) === 0) {
        let k = end;
        while (k < buf.length && isSpace(buf[k]!)) k++;
        if (buf[k] === COLON) {
          k++;
          while (k < buf.length && isSpace(buf[k]!)) k++;
          const vEnd = buf[k] === QUOTE ? stringEnd(buf, k) : -1;
          // A later duplicate wins, as in JSON.parse; a non-string model leaves nothing to splice.
          modelSpan = vEnd > 0 ? [k, vEnd] : null;
          if (vEnd > 0) {
            i = vEnd - 1;
            continue;
          }
        }
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return { tooDeep: true, modelSpan: null };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return { tooDeep: false, modelSpan };
}

/**
 * The body with the top-level model replaced and, when asked, stream_options.include_usage added (only for
 * bodies without stream_options). null when the body's shape does not allow a safe splice. `span` is the
 * model span when the caller already scanned the body.
 */
export function spliceBody(
  raw: Buffer,
  model: string,
  addStreamUsage: boolean,
  hasStreamOptions: boolean,
  span: [number, number] | null = scanJson(raw).modelSpan,
): Buffer | null {
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
