/**
 * A paced, cuttable event stream over one node:http response. Frames are opaque (SSE text here; a binary
 * event-stream dialect passes bytes), so every dialect shares the latency and `midstream-reset` behaviour.
 */
import { once } from 'node:events';
import { MIDSTREAM_RESET_AFTER_FRAMES } from './faults.js';
import { sleep } from './http.js';
import type { SimRequest } from './dialect.js';

export class PacedStream {
  readonly #request: SimRequest;
  #frames = 0;
  #over = false;

  constructor(request: SimRequest, headers: Record<string, string>) {
    this.#request = request;
    request.res.writeHead(200, headers);
    request.res.flushHeaders();
  }

  /** Writes one frame now; false once the stream is over (client gone, cut, or simulator closing). */
  async frame(data: string | Uint8Array): Promise<boolean> {
    const { res, signal, cut } = this.#request;
    if (this.#over || signal.aborted || res.destroyed) return this.#stop();
    this.#frames += 1;
    if (cut && this.#frames >= MIDSTREAM_RESET_AFTER_FRAMES) {
      // Destroy once the frames are flushed, so the client sees a stream that starts and then breaks.
      res.write(data, () => res.destroy());
      return this.#stop();
    }
    const drained = res.write(data);
    if (!drained) {
      try {
        await once(res, 'drain', { signal });
      } catch {
        return this.#stop();
      }
    }
    return true;
  }

  /** Waits `msPerToken`, then writes a frame that carries one token. */
  async token(data: string | Uint8Array): Promise<boolean> {
    if (!(await sleep(this.#request.config.msPerToken, this.#request.signal))) return this.#stop();
    return this.frame(data);
  }

  end(): void {
    if (!this.#over && !this.#request.res.destroyed) this.#request.res.end();
    this.#over = true;
  }

  #stop(): false {
    this.#over = true;
    return false;
  }
}
