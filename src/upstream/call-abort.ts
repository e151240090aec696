import { EventEmitter } from 'node:events';

/**
 * The abort of one provider call (the client went away, or a deadline passed) or of a queued score batch
 * (src/pool/fair-queue.ts, QueueSignal). A provider call's is handed to undici as its
 * `signal` (undici takes an EventEmitter with `aborted`, `reason` and an 'abort' event as well as an
 * AbortSignal). An AbortController costs little, but its AbortSignal is an EventTarget that takes several
 * microseconds to create (Node 20): two per request, about 3% of the event loop's CPU in the load bench.
 * An EventEmitter is created in tens of nanoseconds. Fires at most once.
 */
export class CallAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown = new Error('aborted')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}
