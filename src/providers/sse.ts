/**
 * The one server-sent-events reader of the product (WHATWG HTML, "Parsing an event stream"): lines end with
 * CRLF, LF or CR, a blank line ends an event, `data:` lines join with "\n", `:` lines are comments, one
 * optional space after the colon. It works on bytes, so a chunk split anywhere (inside a UTF-8 sequence,
 * between the CR and the LF of a CRLF) frames exactly as the whole stream.
 *
 * Two views over the same framer: `SseFramer` hands back each event's exact upstream bytes (the passthrough
 * forwards them unchanged), `SseReader` decodes them into `{event, data}` (the provider stream decoders).
 */

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

export interface SseEvent {
  /** The `event:` field, or null for the default `message` type. */
  event: string | null;
  /** `data:` lines joined with "\n". */
  data: string;
}

/** Splits a byte stream into raw events: each frame runs up to and including the line break of its blank line. */
export class SseFramer {
  #buf: Buffer = EMPTY;
  /** Next byte of #buf to scan (bytes before it were scanned already: no rescans of a long event). */
  #pos = 0;
  /** Start of the line being scanned. */
  #lineStart = 0;
  /** The previous byte ended a line with CR: an LF right after it belongs to the same line break. */
  #afterCr = false;

  /** Feeds bytes; returns the frames they complete (subarrays valid until the next call). */
  push(chunk: Buffer): Buffer[] {
    const buf = this.#buf.length > 0 ? Buffer.concat([this.#buf, chunk]) : chunk;
    const frames: Buffer[] = [];
    let eventStart = 0;
    let i = this.#pos;
    let lineStart = this.#lineStart;
    let afterCr = this.#afterCr;
    // Most servers end lines with LF alone: with no CR left to scan, the line breaks are found by the native
    // search (a byte loop in JavaScript was a quarter of an OpenAI stream tap's time, measured per event).
    if (!afterCr && buf.indexOf(CR, i) < 0) {
      for (let nl = buf.indexOf(LF, i); nl >= 0; nl = buf.indexOf(LF, nl + 1)) {
        if (nl === lineStart) {
          frames.push(buf.subarray(eventStart, nl + 1));
          eventStart = nl + 1;
        }
        lineStart = nl + 1;
      }
      i = buf.length;
    }
    for (; i < buf.length; i++) {
      const c = buf[i];
      if (c === LF && afterCr) {
        afterCr = false;
        lineStart = i + 1;
        continue;
      }
      afterCr = false;
      if (c !== LF && c !== CR) continue;
      const blank = i === lineStart;
      if (blank && c === CR) {
        // The frame must take the LF of a CRLF with it: wait for the next byte when the CR ends the chunk.
        if (i + 1 === buf.length) break;
        const end = buf[i + 1] === LF ? i + 2 : i + 1;
        frames.push(buf.subarray(eventStart, end));
        eventStart = lineStart = end;
        i = end - 1;
        continue;
      }
      if (blank) {
        frames.push(buf.subarray(eventStart, i + 1));
        eventStart = lineStart = i + 1;
        continue;
      }
      lineStart = i + 1;
      afterCr = c === CR;
    }
    // Keep the unfinished event; positions become relative to it.
    this.#buf = eventStart < buf.length ? Buffer.from(buf.subarray(eventStart)) : EMPTY;
    this.#pos = i - eventStart;
    this.#lineStart = lineStart - eventStart;
    this.#afterCr = afterCr;
    return frames;
  }

  /**
   * The stream closed: the bytes left over, if any, and whether they lack the blank line that ends an event
   * (a blank line ended by a final CR is complete: no LF can follow it any more).
   */
  end(): { rest: Buffer; partial: boolean } {
    const rest = this.#buf;
    const complete = rest.length > 0 && this.#lineStart === rest.length - 1 && rest[rest.length - 1] === CR;
    this.#buf = EMPTY;
    this.#pos = this.#lineStart = 0;
    this.#afterCr = false;
    return { rest, partial: rest.length > 0 && !complete };
  }
}

/** Decodes one raw frame; null when it carries no data (comments, keep-alives, stray blank lines). */
export function parseFrame(frame: Buffer): SseEvent | null {
  let event: string | null = null;
  let data: string | null = null;
  let start = 0;
  for (let i = 0; i <= frame.length; i++) {
    const c = i < frame.length ? frame[i] : LF;
    if (c !== LF && c !== CR) continue;
    if (i > start && frame[start] !== 0x3a) {
      const colon = frame.indexOf(0x3a, start);
      const nameEnd = colon < 0 || colon > i ? i : colon;
      let valueStart = nameEnd === i ? i : nameEnd + 1;
      if (frame[valueStart] === 0x20 && valueStart < i) valueStart++;
      const name = frame.toString('latin1', start, nameEnd);
      if (name === 'data') {
        const value = frame.toString('utf8', valueStart, i);
        data = data === null ? value : `${data}\n${value}`;
      } else if (name === 'event') event = frame.toString('utf8', valueStart, i);
    }
    if (c === CR && frame[i + 1] === LF) i++;
    start = i + 1;
  }
  return data === null ? null : { event, data };
}

/** Decoded events over the same framer. */
export class SseReader {
  readonly #framer = new SseFramer();

  push(chunk: Buffer): SseEvent[] {
    const out: SseEvent[] = [];
    for (const frame of this.#framer.push(chunk)) {
      const ev = parseFrame(frame);
      if (ev) out.push(ev);
    }
    return out;
  }

  /**
   * The stream closed. A last event without its blank line is still decoded (some servers close right after
   * the last data line); `truncated` says whether such a remainder (other than whitespace) was there.
   */
  end(): { events: SseEvent[]; truncated: boolean } {
    const { rest, partial } = this.#framer.end();
    const ev = rest.length > 0 ? parseFrame(rest) : null;
    return { events: ev ? [ev] : [], truncated: partial && rest.toString('latin1').trim().length > 0 };
  }
}
