/**
 * Server-sent events framing (WHATWG HTML "Parsing an event stream") over raw upstream bytes. Lines end
 * with CRLF, LF or CR; a blank line dispatches the event. Work is on bytes and each line is decoded only
 * once it is complete, so a chunk split anywhere (inside a UTF-8 sequence, between CR and LF) decodes the
 * same as the whole stream. Shared by the OpenAI-family and Google decoders.
 */

export interface SseEvent {
  /** The `event:` field, or null for the default `message` type. */
  event: string | null;
  /** `data:` lines joined with "\n". */
  data: string;
}

const LF = 0x0a;
const CR = 0x0d;

export class SseReader {
  #pending: Buffer = Buffer.alloc(0);
  #event: string | null = null;
  #data: string[] = [];

  /** Feeds bytes; returns the events completed by them. */
  push(chunk: Buffer): SseEvent[] {
    const buf = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = start; i < buf.length; i++) {
      const c = buf[i];
      if (c !== LF && c !== CR) continue;
      // A CR as the last byte may be the first half of a CRLF: wait for the next chunk to decide.
      if (c === CR && i + 1 === buf.length) break;
      this.#line(buf.toString('utf8', start, i), out);
      if (c === CR && buf[i + 1] === LF) i++;
      start = i + 1;
    }
    this.#pending = start < buf.length ? Buffer.from(buf.subarray(start)) : Buffer.alloc(0);
    return out;
  }

  /** The upstream closed: a last line without terminator, and a last event without blank line, count. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.#pending.length > 0) {
      const rest = this.#pending.toString('utf8').replace(/\r$/, '');
      this.#pending = Buffer.alloc(0);
      this.#line(rest, out);
    }
    this.#line('', out);
    return out;
  }

  #line(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n') });
      this.#event = null;
      this.#data = [];
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // ':' comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
  }
}
