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
 *
 * Driven by the body's events, not `for await`: the async iterator costs a promise and a microtask hop per
 * chunk and its own listeners per stream, a measurable share of a streamed request's CPU. Outcomes are those
 * of the loop it replaces: `error` for a failed read, an idle timeout, a transform that throws, or a body that
 * closes before its end; `aborted` whenever the client went away (the body is then destroyed).
 */
export function pumpStream(
  res: ResponseSink,
  body: Dispatcher.ResponseData['body'],
  idleMs: number,
  transform: (chunk: Buffer) => string | Buffer,
): Promise<Pumped> {
  const idle = idleWatch(body, idleMs);
  return new Promise<Pumped>((resolve) => {
    let done = false;
    const finish = (outcome: StreamOutcome, error: unknown, destroy: boolean): void => {
      if (done) return;
      done = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      idle.stop();
      if (res.aborted) {
        outcome = 'aborted';
        destroy = true;
      }
      if (destroy) body.destroy();
      resolve({ outcome, error });
    };
    const onData = (chunk: Buffer): void => {
      idle.touch();
      let out: string | Buffer;
      try {
        out = transform(chunk);
      } catch (e) {
        finish('error', e, true);
        return;
      }
      if (out.length > 0 && !res.write(out)) {
        body.pause();
        idle.suspend(res.drained()).then(
          () => {
            if (done) return;
            if (res.aborted) finish('aborted', null, true);
            else body.resume();
          },
          (e: unknown) => finish('error', e, true),
        );
        return;
      }
      if (res.aborted) finish('aborted', null, true);
    };
    const onEnd = (): void => finish('ok', null, false);
    const onError = (e: Error): void => finish('error', e, false);
    // Destroyed without an error (or closed early): the loop it replaces failed with a premature close too.
    const onClose = (): void => finish('error', new Error('upstream body closed before its end'), false);
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
  });
}
