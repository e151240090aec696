import type { WorkerPool } from './pool.js';

type Scores = Record<string, number>;

interface Waiter {
  texts: string[];
  resolve: (r: Scores[]) => void;
  reject: (e: unknown) => void;
}

/** Texts per pool task: big enough to amortise the hand-off, small enough to spread over the workers. */
const MAX_TEXTS_PER_TASK = 64;

/**
 * Micro-batches guardrail scoring: every request that asks within the same event-loop turn shares one pool
 * task (dispatched on setImmediate, so no added wait). The pool hand-off (structured clone, message port,
 * worker wake-up) was the largest single CPU cost per request in the load benchmark; batching pays it once
 * per turn instead of once per request. A batch that misses the deadline fails every request in it, which
 * the inspect stage answers with 503 and `x-svc-guardrails: unavailable`.
 */
export class ScoreBatcher {
  #waiting: Waiter[] = [];
  #scheduled = false;

  constructor(
    private readonly pool: Pick<WorkerPool, 'run'>,
    private readonly deadlineMs: number,
  ) {}

  score(texts: string[]): Promise<Scores[]> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ texts, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const all = this.#waiting;
    this.#waiting = [];
    let group: Waiter[] = [];
    let count = 0;
    for (const w of all) {
      if (count > 0 && count + w.texts.length > MAX_TEXTS_PER_TASK) {
        this.#dispatch(group);
        group = [];
        count = 0;
      }
      group.push(w);
      count += w.texts.length;
    }
    if (group.length > 0) this.#dispatch(group);
  }

  #dispatch(group: Waiter[]): void {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new Error(`guardrail scoring exceeded ${this.deadlineMs} ms`)), this.deadlineMs);
    const texts = group.length === 1 ? group[0]!.texts : group.flatMap((w) => w.texts);
    this.pool.run('score', { texts }, ac.signal).then(
      (results) => {
        clearTimeout(timer);
        let i = 0;
        for (const w of group) {
          w.resolve(results.slice(i, i + w.texts.length));
          i += w.texts.length;
        }
      },
      (err: unknown) => {
        clearTimeout(timer);
        for (const w of group) w.reject(err);
      },
    );
  }
}
