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
  /**
   * The first key that appears twice in one object (decoded, so `"model"` and `"m\u006fdel"` are one key),
   * or null. JSON.parse keeps the last copy while an upstream may read the first: the gateway would inspect
   * and bill one body and forward another (security hardening, finding 6).
   */
  duplicateKey: string | null;
  /** [start, end) of the last top-level "model" string value, quotes included (the one JSON.parse keeps). */
  modelSpan: [number, number] | null;
}

/** The decoded text of the JSON string at [start, end) (quotes included). */
function keyText(buf: Buffer, start: number, end: number): string {
  try {
    return JSON.parse(buf.toString('utf8', start, end)) as string;
  } catch {
    return buf.toString('utf8', start, end); // malformed: JSON.parse of the whole body reports it
  }
}

function hasEscape(buf: Uint8Array, start: number, end: number): boolean {
  for (let j = start + 1; j < end - 1; j++) if (buf[j] === BACKSLASH) return true;
  return false;
}

/**
 * Keys of the open objects as [start, end) byte spans in one flat list, with a mark per open container:
 * no allocation per object, and a new key is compared byte for byte with its siblings only (objects have
 * a handful of keys). A key with an escape is compared decoded (rare).
 */
class KeySpans {
  readonly #spans: number[] = [];
  readonly #marks: number[] = [];

  open(): void {
    this.#marks.push(this.#spans.length);
  }

  close(): void {
    this.#spans.length = this.#marks.pop() ?? 0;
  }

  /** Adds the key at [start, end); true when the innermost open object already has it. */
  seen(buf: Buffer, start: number, end: number): boolean {
    const from = this.#marks[this.#marks.length - 1] ?? 0;
    const escaped = hasEscape(buf, start, end);
    const text = escaped ? keyText(buf, start, end) : '';
    for (let k = from; k < this.#spans.length; k += 2) {
      const s = this.#spans[k]!;
      const e = this.#spans[k + 1]!;
      if (escaped || hasEscape(buf, s, e)) {
        if ((escaped ? text : keyText(buf, start, end)) === keyText(buf, s, e)) return true;
        continue;
      }
      if (e - s !== end - start) continue;
      let same = true;
      for (let j = 1; j < e - s - 1 && same; j++) same = buf[s + j] === buf[start + j];
      if (same) return true;
    }
    this.#spans.push(start, end);
    return false;
  }
}

export function scanJson(buf: Uint8Array, maxDepth = Number.POSITIVE_INFINITY): JsonScan {
  const bytes = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let depth = 0;
  let modelSpan: [number, number] | null = null;
  const keys = new KeySpans();
  // Per open container: is it an object (keys are checked there)?
  const inObject: boolean[] = [];
  let duplicateKey: string | null = null;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      const end = stringEnd(buf, i);
      if (end < 0) break;
      if (duplicateKey === null && inObject[inObject.length - 1] === true) {
        let k = end;
        while (k < buf.length && isSpace(buf[k]!)) k++;
        if (buf[k] === COLON && keys.seen(bytes, i, end)) duplicateKey = keyText(bytes, i, end);
      }
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
      if (++depth > maxDepth) return { tooDeep: true, duplicateKey, modelSpan: null };
      inObject.push(c === OPEN_BRACE);
      keys.open();
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      inObject.pop();
      keys.close();
    }
  }
  return { tooDeep: false, duplicateKey, modelSpan };
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
