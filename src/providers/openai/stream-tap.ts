import { lastUsageObject } from '../usage-tap.js';

const SEP = Buffer.from('\n\n');
const USAGE = Buffer.from('"usage":{');
const EMPTY_CHOICES = Buffer.from('"choices":[]');
const DONE = Buffer.from('data: [DONE]');
const CONTENT = Buffer.from('"content":"');
const ARGS = Buffer.from('"arguments":"');
const USAGE_NULL = Buffer.from('"usage":null');
const COMMA = 0x2c;

/**
 * The event without its `"usage":null` key. OpenAI puts it on every chunk once `include_usage` is set (the
 * gateway sets it); a client that did not ask must not see the key (the Mistral SDK's schema rejects null).
 */
export function stripNullUsage(event: Buffer): Buffer {
  const at = event.indexOf(USAGE_NULL);
  if (at < 0) return event;
  const end = at + USAGE_NULL.length;
  if (at > 0 && event[at - 1] === COMMA) return Buffer.concat([event.subarray(0, at - 1), event.subarray(end)]);
  if (event[end] === COMMA) return Buffer.concat([event.subarray(0, at), event.subarray(end + 1)]);
  return event;
}

/**
 * Per-request OpenAI SSE tap. Works on bytes: splits the upstream stream into events at blank lines, counts
 * content events (tokens emitted, for settling a disconnected stream), captures the usage chunk, and drops
 * that chunk (and the `"usage":null` key of the others) when the client did not ask for it (the gateway
 * always asks the upstream for usage).
 * Events are forwarded unchanged otherwise; only the usage event is ever parsed.
 */
export class OpenAIStreamTap {
  #pending: Buffer = Buffer.alloc(0);
  #usage: Record<string, unknown> | null = null;
  #contentEvents = 0;
  #sawDone = false;

  constructor(
    private readonly forwardUsage: boolean,
    /** Called before `data: [DONE]` is forwarded; returns bytes to insert (e.g. an SSE comment with cost). */
    private readonly beforeDone: () => string,
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

  /** Returns the bytes to forward for this upstream chunk (possibly empty). */
  feed(chunk: Buffer): Buffer {
    const buf = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const out: Buffer[] = [];
    let start = 0;
    let cut = start;
    for (;;) {
      const sep = buf.indexOf(SEP, start);
      if (sep < 0) break;
      const end = sep + 2;
      const event = buf.subarray(start, end);
      if (event.includes(USAGE)) {
        this.#usage = lastUsageObject(event.toString('utf8')) ?? this.#usage;
        if (!this.forwardUsage && event.includes(EMPTY_CHOICES)) {
          if (cut < start) out.push(buf.subarray(cut, start));
          cut = end;
        }
      }
      if (event.includes(CONTENT) || event.includes(ARGS)) this.#contentEvents++;
      const strip = !this.forwardUsage && event.includes(USAGE_NULL);
      if ((this.rewrite || strip) && !event.includes(DONE) && cut <= start) {
        if (cut < start) out.push(buf.subarray(cut, start));
        const stripped = strip ? stripNullUsage(event) : event;
        out.push(this.rewrite ? this.rewrite(stripped) : stripped);
        cut = end;
      }
      if (event.includes(DONE)) {
        this.#sawDone = true;
        if (cut < start) out.push(buf.subarray(cut, start));
        out.push(Buffer.from(this.beforeDone()));
        cut = start;
      }
      start = end;
    }
    if (cut < start) out.push(buf.subarray(cut, start));
    this.#pending = start < buf.length ? Buffer.from(buf.subarray(start)) : Buffer.alloc(0);
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** Bytes left without a terminating blank line when the upstream closed. */
  flush(): Buffer {
    const rest = this.#pending;
    this.#pending = Buffer.alloc(0);
    return rest;
  }
}
