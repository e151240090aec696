/**
 * Incremental server-sent-events parser (WHATWG HTML "Server-sent events", event stream interpretation):
 * events end at a blank line; `\r\n`, `\n` and `\r` all end a line; `event:` and `data:` fields, one
 * optional space after the colon; several data lines join with `\n`; `:` lines are comments. Bytes may be
 * split anywhere, inside a UTF-8 character or a CRLF included.
 */
import { StringDecoder } from 'node:string_decoder';

export interface SseEvent {
  event: string | null;
  data: string;
}

function parseBlock(block: string): SseEvent | null {
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.length === 0 || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return event === null && data.length === 0 ? null : { event, data: data.join('\n') };
}

export class SseParser {
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';

  push(chunk: Buffer): SseEvent[] {
    return this.#drain(this.#pending + this.#decoder.write(chunk));
  }

  /** The stream closed: events completed so far, and whether an unterminated event was left over. */
  end(): { events: SseEvent[]; truncated: boolean } {
    const events = this.#drain(this.#pending + this.#decoder.end());
    const truncated = this.#pending.trim().length > 0;
    this.#pending = '';
    return { events, truncated };
  }

  #drain(input: string): SseEvent[] {
    // A trailing CR may be the first half of a CRLF: keep it raw until the next chunk says.
    const hold = input.endsWith('\r') ? 1 : 0;
    const text = input.slice(0, input.length - hold).replace(/\r\n?/g, '\n');
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const sep = text.indexOf('\n\n', start);
      if (sep < 0) break;
      const event = parseBlock(text.slice(start, sep));
      if (event) events.push(event);
      start = sep + 2;
    }
    this.#pending = text.slice(start) + (hold ? '\r' : '');
    return events;
  }
}
