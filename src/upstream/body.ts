/**
 * An upstream response body fed straight by undici's dispatch callbacks, without a Node Readable in between.
 *
 * `agent.request()` wraps every response in a Readable (a stream state, an EventEmitter, a buffer list, its own
 * 'close'/'end' plumbing and, for `for await`, an async-iterator adapter with listeners of its own), all created
 * and torn down per request: in the load bench's CPU profile about 4-5% of the event loop, and short-lived objects
 * that the young generation promotes. The gateway reads a body in exactly two ways (whole, with a cap, or chunk by
 * chunk for a stream with backpressure), so this is all it needs.
 *
 * Backpressure: above HIGH_WATER bytes buffered and not yet read by a streaming reader, undici is told to pause
 * the socket (onData returns false) and is resumed once the reader has taken the buffer. `readAll` never pauses
 * (it takes everything; its cap bounds it).
 */

/** Bytes buffered for a streaming reader before the upstream socket is paused. */
export const HIGH_WATER = 64 * 1024;

/** What a reader waiting on the body is told: a chunk may be there, the body ended, or it failed. */
type Wake = () => void;

export class UpstreamBody {
  #chunks: Buffer[] = [];
  #size = 0;
  #ended = false;
  #error: Error | null = null;
  #closed = false;
  #wake: Wake | null = null;
  #paused = false;
  #collecting = false;
  #onClose: (() => void) | null = null;

  constructor(
    /** Aborts the undici request (the connection is not reused). */
    private readonly abort: (reason: Error) => void,
    /** Resumes a paused socket. */
    private readonly resume: () => void,
  ) {}

  /** Called once when the body is finished for any reason: ended, failed or destroyed. */
  onClose(cb: () => void): void {
    if (this.#closed) cb();
    else this.#onClose = cb;
  }

  /** undici's onData: false asks undici to pause the socket. */
  push(chunk: Buffer): boolean {
    if (this.#closed) return true;
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    this.#signal();
    if (!this.#collecting && this.#size > HIGH_WATER) this.#paused = true;
    return !this.#paused;
  }

  /** undici's onComplete. */
  end(): void {
    if (this.#closed) return;
    this.#ended = true;
    this.#close();
  }

  /** undici's onError after the head: the body fails. */
  fail(err: Error): void {
    if (this.#closed) return;
    this.#error = err;
    this.#close();
  }

  /**
   * Stops the body: the request is aborted and a reader gets `err` (or "closed before its end"). Whatever was
   * buffered is dropped.
   */
  destroy(err?: Error): void {
    if (this.#closed) return;
    const reason = err ?? new Error('upstream body closed before its end');
    this.#error = reason;
    this.#chunks = [];
    this.#size = 0;
    this.#close();
    this.abort(reason);
  }

  #close(): void {
    this.#closed = true;
    this.#signal();
    const cb = this.#onClose;
    this.#onClose = null;
    cb?.();
  }

  #signal(): void {
    const wake = this.#wake;
    if (wake !== null) {
      this.#wake = null;
      wake();
    }
  }

  #wait(): Promise<void> {
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** Everything buffered, as one chunk (the reader takes it all: a burst becomes one write downstream). */
  #take(): Buffer {
    const chunks = this.#chunks;
    const out = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size);
    this.#chunks = [];
    this.#size = 0;
    this.#unpause();
    return out;
  }

  #unpause(): void {
    if (!this.#paused) return;
    this.#paused = false;
    if (!this.#closed) this.resume();
  }

  /** The upstream ended normally and everything it sent has been read: the next read() answers null. */
  get finished(): boolean {
    return this.#ended && this.#size === 0;
  }

  /** The next bytes (everything buffered), or null at the end; throws the body's failure. */
  async read(): Promise<Buffer | null> {
    for (;;) {
      if (this.#size > 0) return this.#take();
      if (this.#error !== null) throw this.#error;
      if (this.#ended) return null;
      await this.#wait();
    }
  }

  /** The whole body; over `cap` bytes (default 64 MiB, against a runaway upstream) the body is destroyed and this rejects. */
  async readAll(cap = 64 * 1024 * 1024): Promise<Buffer> {
    this.#collecting = true;
    this.#unpause();
    for (;;) {
      if (this.#size > cap) {
        const err = new Error('upstream body exceeds cap');
        this.destroy(err);
        throw err;
      }
      if (this.#error !== null) throw this.#error;
      if (this.#ended) return this.#take();
      await this.#wait();
    }
  }
}
