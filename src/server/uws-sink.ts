import type { HttpResponse } from 'uWebSockets.js';
import { statusLine } from './status-text.js';
import type { HeaderList, ResponseSink } from './types.js';

/**
 * The idle time a response tells the client its connection may be reused for (`Keep-Alive: timeout=5`, as Node's own
 * http server says). uWS closes a keep-alive connection after about 10 s idle (measured: 10.4 s); a client that keeps
 * idle connections longer (an undici Pool with a long keepAliveTimeout, as the sustained bench's fixed-rate generator
 * has) could send its next request just as the server closes the socket, and see a connection error it cannot tell from
 * a lost request (one in a 60 s fixed-rate row). Clients that read the hint (undici, hence Node's fetch and the official
 * SDKs on it) close idle connections before the server does.
 */
const KEEP_ALIVE = 'timeout=5';

/**
 * ResponseSink over a uWS HttpResponse. Every write after the handler's synchronous part is corked
 * (status -> headers -> body), backpressure is surfaced through write() === false + drained().
 */
export class UwsSink implements ResponseSink {
  #aborted = false;
  #ended = false;
  #abortCbs: (() => void)[] = [];
  #drainWaiters: (() => void)[] = [];
  #writableArmed = false;
  #backpressure = 0;
  /** A begun stream's status and headers, held until the first body write so both leave in one write. */
  #head: { status: number; headers: HeaderList } | null = null;

  constructor(private readonly res: HttpResponse) {
    res.onAborted(() => {
      this.#aborted = true;
      for (const cb of this.#abortCbs) cb();
      this.#abortCbs = [];
      this.#wakeDrainers();
    });
  }

  get backpressureEvents(): number {
    return this.#backpressure;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Neither aborted nor ended: the uWS response may still be used. */
  get open(): boolean {
    return !this.#aborted && !this.#ended;
  }

  onAbort(cb: () => void): void {
    if (this.#aborted) cb();
    else this.#abortCbs.push(cb);
  }

  #writeHead(status: number, headers: HeaderList, keepAlive = true): void {
    this.res.writeStatus(statusLine(status));
    if (keepAlive) this.res.writeHeader('keep-alive', KEEP_ALIVE);
    for (const name in headers) {
      const v = headers[name];
      if (v !== undefined) this.res.writeHeader(name, v);
    }
  }

  send(status: number, headers: HeaderList, body: string | Uint8Array): void {
    if (this.#aborted || this.#ended) return;
    this.#ended = true;
    this.res.cork(() => {
      this.#writeHead(status, headers);
      this.res.end(body);
    });
  }

  /** 413 and friends: answer, then close the connection so the rest of the body is never read. */
  sendAndClose(status: number, headers: HeaderList, body: string): void {
    if (this.#aborted || this.#ended) return;
    this.#ended = true;
    this.res.cork(() => {
      this.#writeHead(status, headers, false);
      this.res.end(body, true);
    });
  }

  begin(status: number, headers: HeaderList): void {
    if (this.#aborted || this.#ended) return;
    this.#head = { status, headers };
  }

  #flushHead(): void {
    const h = this.#head;
    if (h) {
      this.#head = null;
      this.#writeHead(h.status, h.headers);
    }
  }

  write(chunk: string | Uint8Array): boolean {
    // Nothing to send (and in a chunked response an empty chunk would read as the end of the body).
    if (this.#aborted || this.#ended || chunk.length === 0) return true;
    let ok = true;
    this.res.cork(() => {
      this.#flushHead();
      ok = this.res.write(chunk);
    });
    if (!ok) {
      this.#backpressure++;
      this.#armWritable();
    }
    return ok;
  }

  #armWritable(): void {
    if (this.#writableArmed) return;
    this.#writableArmed = true;
    this.res.onWritable(() => {
      this.#wakeDrainers();
      return true;
    });
  }

  #wakeDrainers(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const w of waiters) w();
  }

  drained(): Promise<void> {
    if (this.#aborted || this.#ended) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  cut(): void {
    if (this.#aborted || this.#ended) return;
    this.#ended = true;
    // close() runs onAborted at once: nothing may use the uWS response after this.
    this.res.close();
  }

  end(...chunks: (string | Uint8Array)[]): void {
    if (this.#aborted || this.#ended) return;
    this.#ended = true;
    this.res.cork(() => {
      this.#flushHead();
      // Empty chunks are skipped: in a chunked response an empty chunk would read as the end of the body.
      let last: string | Uint8Array | undefined;
      for (const c of chunks) {
        if (c.length === 0) continue;
        if (last !== undefined) this.res.write(last);
        last = c;
      }
      if (last === undefined) this.res.end();
      else this.res.end(last);
    });
  }
}
