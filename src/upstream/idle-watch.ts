import type { Dispatcher } from 'undici';

export interface IdleWatch {
  /** A chunk arrived. */
  touch(): void;
  /** Waits on the client (backpressure): the upstream is idle by our choice, so the deadline is suspended. */
  suspend<T>(wait: Promise<T>): Promise<T>;
  stop(): void;
}

/**
 * An exact idle deadline between upstream body chunks (undici's bodyTimeout runs on a coarse clock). When
 * the gap exceeds `ms` the body is destroyed, which ends the reading loop with an error. One timer per
 * stream, refreshed in place.
 */
export function idleWatch(body: Dispatcher.ResponseData['body'], ms: number): IdleWatch {
  let suspended = false;
  const timer = setTimeout(function fire() {
    if (suspended) timer.refresh();
    else body.destroy(new Error(`upstream idle for more than ${ms} ms`));
  }, ms);
  return {
    touch: () => void timer.refresh(),
    async suspend<T>(wait: Promise<T>): Promise<T> {
      suspended = true;
      try {
        return await wait;
      } finally {
        suspended = false;
        timer.refresh();
      }
    },
    stop: () => clearTimeout(timer),
  };
}
