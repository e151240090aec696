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
 * stream: a chunk only notes the time (refreshing the timer per chunk re-inserted it in Node's timer list each
 * time: the list's unenroll and insert were 0.8% of the main thread on the bench's slow streams, this timer among
 * others); when the timer fires before the deadline it re-arms for what is left.
 */
export function idleWatch(body: { destroy(err?: Error): void }, ms: number): IdleWatch {
  let suspended = false;
  let last = performance.now();
  let timer = setTimeout(fire, ms);
  function fire(): void {
    const left = ms - (performance.now() - last);
    if (suspended) timer = setTimeout(fire, ms);
    // A timer may fire up to a millisecond before the clock reads its due time.
    else if (left > 1) timer = setTimeout(fire, left);
    else body.destroy(new Error(`upstream idle for more than ${ms} ms`));
  }
  return {
    touch: () => void (last = performance.now()),
    async suspend<T>(wait: Promise<T>): Promise<T> {
      suspended = true;
      try {
        return await wait;
      } finally {
        suspended = false;
        last = performance.now();
      }
    },
    stop: () => clearTimeout(timer),
  };
}
