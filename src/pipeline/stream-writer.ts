import type { UpstreamBody } from '../upstream/body.js';
import type { ResponseSink } from '../server/types.js';
import { idleWatch } from '../upstream/idle-watch.js';

export type StreamOutcome = 'ok' | 'aborted' | 'error';

export interface Pumped {
  outcome: StreamOutcome;
  /** What ended the stream with `error` (an upstream read failure, an idle timeout, a decoder refusal). */
  error: unknown;
  /**
   * The transformed last bytes of an upstream that had already ended when they were read, not yet written: the
   * caller sends them with its own tail and the end of the response, in one socket write instead of two.
   */
  last: string | Buffer;
}

/**
 * The one loop that moves an upstream body to a streaming client, used by both serve paths: each chunk goes
 * through `transform` and is written at once; a full socket pauses the upstream read until the client
 * drains (the idle deadline is suspended meanwhile: the upstream is idle by our choice); a client that
 * goes away aborts the upstream body (ARCHITECTURE decision 7). It never ends the response: the caller
 * writes `last` and the tail it owes (usage comment, terminator, error event) and ends it.
 */
export async function pumpStream(
  res: ResponseSink,
  body: UpstreamBody,
  idleMs: number,
  transform: (chunk: Buffer) => string | Buffer,
): Promise<Pumped> {
  const idle = idleWatch(body, idleMs);
  let outcome: StreamOutcome = 'ok';
  let error: unknown = null;
  let last: string | Buffer = '';
  try {
    // read() hands over everything buffered as one chunk: under load several upstream chunks go through one tap
    // pass and one write (cpu.md: an event per upstream chunk cost ~30% more CPU per stream).
    for (let chunk = await body.read(); chunk !== null; chunk = await body.read()) {
      idle.touch();
      const out = transform(chunk);
      if (body.finished) {
        last = out;
        break;
      }
      if (out.length > 0 && !res.write(out)) await idle.suspend(res.drained());
      if (res.aborted) break;
    }
  } catch (e) {
    outcome = 'error';
    error = e;
  }
  idle.stop();
  if (res.aborted) {
    outcome = 'aborted';
    body.destroy();
  }
  return { outcome, error, last };
}
