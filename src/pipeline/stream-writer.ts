import type { Dispatcher } from 'undici';
import type { ResponseSink } from '../server/types.js';
import { idleWatch } from '../upstream/idle-watch.js';

export type StreamOutcome = 'ok' | 'aborted' | 'error';

export interface Pumped {
  outcome: StreamOutcome;
  /** What ended the stream with `error` (an upstream read failure, an idle timeout, a decoder refusal). */
  error: unknown;
}

/**
 * The one loop that moves an upstream body to a streaming client, used by both serve paths: each chunk goes
 * through `transform` and is written at once; a full socket pauses the upstream read until the client
 * drains (the idle deadline is suspended meanwhile: the upstream is idle by our choice); a client that
 * goes away aborts the upstream body (ARCHITECTURE decision 7). It never ends the response: the caller
 * writes the tail it owes (usage comment, terminator, error event) and ends it.
 */
export async function pumpStream(
  res: ResponseSink,
  body: Dispatcher.ResponseData['body'],
  idleMs: number,
  transform: (chunk: Buffer) => string | Buffer,
): Promise<Pumped> {
  const idle = idleWatch(body, idleMs);
  let outcome: StreamOutcome = 'ok';
  let error: unknown = null;
  try {
    for await (const chunk of body) {
      idle.touch();
      const out = transform(chunk as Buffer);
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
  return { outcome, error };
}
