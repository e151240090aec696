import { SseFramer } from '../sse.js';
import { lastUsageObject } from '../usage-tap.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY_USAGE = Buffer.from('"usage"');
const KEY_CHOICES = Buffer.from('"choices"');
const KEY_CONTENT = Buffer.from('"content"');
const KEY_ARGS = Buffer.from('"arguments"');
const DONE = Buffer.from('[DONE]');
const USAGE_NULL = Buffer.from('"usage":null');
const COMMA = 0x2c;

/** Where the last classify() found a `"usage"` key whose value starts with `n` (-1: none). */
let nullUsageAt = -1;

/** What one event holds, found in a single pass over its bytes. */
const USAGE = 1;
const EMPTY_CHOICES = 2;
const CONTENT = 4;
const IS_DONE = 8;
const NULL_USAGE = 16;

/**
 * Index of the quote closing the JSON string opened at `open` (-1 when the event ends inside it). A byte loop: a
 * native `indexOf` per quote cost more than the scan (a stream chunk's event holds ~30 strings of a few bytes).
 */
function closingQuote(ev: Buffer, open: number): number {
  const n = ev.length;
  for (let j = open + 1; j < n; j++) {
    const c = ev[j];
    if (c === QUOTE) return j;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/** Index of the next quote at or after `from` (-1: none), by the same byte loop. */
function nextQuote(ev: Buffer, from: number): number {
  const n = ev.length;
  for (let j = from; j < n; j++) if (ev[j] === QUOTE) return j;
  return -1;
}

/** Whether `key` is at `at` (a byte loop: these keys are a few bytes, shorter than a native call's overhead). */
function keyAt(ev: Buffer, at: number, key: Buffer): boolean {
  if (at + key.length > ev.length) return false;
  for (let j = 0; j < key.length; j++) if (ev[at + j] !== key[j]) return false;
  return true;
}

/** Skips spaces after a JSON token. */
function skipWs(ev: Buffer, i: number): number {
  while (ev[i] === 0x20 || ev[i] === 0x09) i++;
  return i;
}

/**
 * Classifies one OpenAI stream event in one pass: walks its JSON strings by their quotes (contents are
 * skipped, so a prompt that says `"usage":{` cannot fool it) and looks only at object keys.
 */
function classify(ev: Buffer): number {
  let flags = 0;
  nullUsageAt = -1;
  let q = nextQuote(ev, 0);
  if (q < 0) {
    const d = ev.indexOf(DONE);
    return d >= 0 && ev.lastIndexOf(0x3a, d) >= 0 ? IS_DONE : 0;
  }
  while (q >= 0) {
    const close = closingQuote(ev, q);
    if (close < 0) break;
    const after = skipWs(ev, close + 1);
    if (ev[after] === 0x3a) {
      const value = skipWs(ev, after + 1);
      const len = close + 1 - q;
      if (len === KEY_USAGE.length && (ev[value] === 0x7b || ev[value] === 0x6e) && keyAt(ev, q, KEY_USAGE)) {
        if (ev[value] === 0x7b) flags |= USAGE;
        else {
          flags |= NULL_USAGE;
          if (nullUsageAt < 0) nullUsageAt = q;
        }
      } else if (len === KEY_CHOICES.length && ev[value] === 0x5b && ev[skipWs(ev, value + 1)] === 0x5d && keyAt(ev, q, KEY_CHOICES)) {
        flags |= EMPTY_CHOICES;
      } else if (ev[value] === QUOTE && ((len === KEY_CONTENT.length && keyAt(ev, q, KEY_CONTENT)) || (len === KEY_ARGS.length && keyAt(ev, q, KEY_ARGS)))) {
        flags |= CONTENT;
      }
    }
    q = nextQuote(ev, close + 1);
  }
  return flags;
}

/**
 * The event without its `"usage":null` key. OpenAI puts it on every chunk once `include_usage` is set (the
 * gateway sets it); a client that did not ask must not see the key (the Mistral SDK's schema rejects null).
 */
export function stripNullUsage(event: Buffer): Buffer {
  const cut = nullUsageCut(event);
  return cut === null ? event : Buffer.concat([event.subarray(0, cut[0]), event.subarray(cut[1])]);
}

/**
 * The byte range `stripNullUsage` removes (the key and one adjacent comma), or null when there is none. `at`, when
 * known, is where `"usage":null` may start (classify found the key there); otherwise it is searched for.
 */
function nullUsageCut(event: Buffer, at = event.indexOf(USAGE_NULL)): [number, number] | null {
  if (at < 0 || !keyAt(event, at, USAGE_NULL)) return null;
  const end = at + USAGE_NULL.length;
  if (at > 0 && event[at - 1] === COMMA) return [at - 1, end];
  if (event[end] === COMMA) return [at, end + 1];
  return null;
}

const EMPTY = Buffer.alloc(0);

/**
 * Per-request OpenAI SSE tap. Works on bytes over the shared SSE framer (LF, CRLF or CR line ends, any
 * byte split): counts content events (tokens emitted, for settling a disconnected stream), captures the
 * usage chunk, and drops that chunk when the client did not ask for it (the gateway always asks the
 * upstream for usage), with the `"usage":null` key of the other chunks. Events are forwarded byte for byte
 * otherwise; only the usage event is ever parsed.
 */
export class OpenAIStreamTap {
  readonly #framer = new SseFramer();
  #usage: Record<string, unknown> | null = null;
  #contentEvents = 0;
  #sawDone = false;
  /** `data: [DONE]` and whatever follows it: the end, which the caller sends with the response's end. */
  #end: Buffer[] = [];

  constructor(
    private readonly forwardUsage: boolean,
    /** Rewrites each event's top-level `model` (a router alias reports itself); null forwards events as is. */
    private readonly rewrite: ((event: Buffer) => Buffer) | null = null,
  ) {}

  get usage(): Record<string, unknown> | null {
    return this.#usage;
  }
  get contentEvents(): number {
    return this.#contentEvents;
  }
  get sawDone(): boolean {
    return this.#sawDone;
  }

  /**
   * The `data: [DONE]` event and any bytes after it, held back from feed() and flush(): the caller puts its usage
   * comment before them and sends them as the end of the response, once the request's settlement is journaled.
   */
  get end(): Buffer {
    return this.#end.length === 1 ? this.#end[0]! : Buffer.concat(this.#end);
  }

  /** Returns the bytes to forward for this upstream chunk (possibly empty). */
  feed(chunk: Buffer): Buffer {
    const frames = this.#framer.push(chunk);
    if (frames.length === 0) return EMPTY;
    const out: Buffer[] = [];
    for (const ev of frames) this.#event(ev, this.#sawDone ? this.#end : out);
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /**
   * The upstream closed: an event left without its blank line is tapped like the others (some servers
   * close right after `data: [DONE]`) and its bytes returned for forwarding.
   */
  flush(): Buffer {
    const { rest } = this.#framer.end();
    if (rest.length === 0) return rest;
    const out: Buffer[] = [];
    this.#event(rest, this.#sawDone ? this.#end : out);
    return Buffer.concat(out);
  }

  #event(ev: Buffer, out: Buffer[]): void {
    const flags = classify(ev);
    if (flags & IS_DONE) {
      this.#sawDone = true;
      this.#end.push(ev);
      return;
    }
    if (flags & CONTENT) this.#contentEvents++;
    if (flags & USAGE) {
      this.#usage = lastUsageObject(ev.toString('utf8')) ?? this.#usage;
      if (!this.forwardUsage && flags & EMPTY_CHOICES) return;
    }
    if (!this.forwardUsage && flags & NULL_USAGE) {
      const cut = nullUsageCut(ev, nullUsageAt);
      if (cut !== null && this.rewrite === null) {
        // The two pieces around the key go out as they are: the chunk's one concat copies them (no copy per event).
        out.push(ev.subarray(0, cut[0]), ev.subarray(cut[1]));
        return;
      }
      if (cut !== null) ev = Buffer.concat([ev.subarray(0, cut[0]), ev.subarray(cut[1])]);
    }
    out.push(this.rewrite ? this.rewrite(ev) : ev);
  }
}
