import type { WorkerPool } from './pool.js';

type Scores = Record<string, number>;

interface Waiter {
  tenant: string;
  texts: string[];
  resolve: (r: Scores[]) => void;
  reject: (e: unknown) => void;
}

/** Texts per pool task: big enough to amortise the hand-off, small enough to spread over the workers. */
const MAX_TEXTS_PER_TASK = 64;

/**
 * Micro-batches guardrail scoring: every request of one organization that asks within the same event-loop
 * turn shares one pool task (dispatched on setImmediate, so no added wait). Batches never mix
 * organizations: each is a task of its tenant in the pool's fair queue, so one organization's big prompts
 * cannot make another organization's batch miss its deadline. The pool hand-off (structured clone, message port,
 * worker wake-up) was the largest single CPU cost per request in the load benchmark; batching pays it once
 * per turn instead of once per request. A batch that misses the deadline fails every request in it, which
 * the inspect stage answers with 503 and `x-svc-guardrails: unavailable` (monitor mode serves it). The deadline
 * never kills a worker: it drops the batch if still queued, else lets it finish and discards the results.
 */
export class ScoreBatcher {
  #waiting: Waiter[] = [];
  #scheduled = false;

  constructor(
    private readonly pool: Pick<WorkerPool, 'run'>,
    private readonly deadlineMs: number,
  ) {}

  score(texts: string[], tenant: string): Promise<Scores[]> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ tenant, texts, resolve, reject });
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
    const open = new Map<string, { group: Waiter[]; count: number }>();
    for (const w of all) {
      let g = open.get(w.tenant);
      if (g && g.count > 0 && g.count + w.texts.length > MAX_TEXTS_PER_TASK) {
        this.#dispatch(g.group);
        g = undefined;
      }
      if (!g) {
        g = { group: [], count: 0 };
        open.set(w.tenant, g);
      }
      g.group.push(w);
      g.count += w.texts.length;
    }
    for (const g of open.values()) this.#dispatch(g.group);
  }

  #dispatch(group: Waiter[]): void {
    // The deadline bounds the *wait*, never the worker: an abort handed to piscina terminates the worker thread
    // and starts a new one (~250 ms of CPU each, so an overload spiralled into worker churn). The signal goes
    // to the pool's fair queue only: a batch still queued when its deadline passes is dropped before it starts
    // (every request in it has its verdict already), while a batch already running finishes on its worker and
    // its late results are discarded.
    const ac = new AbortController();
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      const err = new Error(`guardrail scoring exceeded ${this.deadlineMs} ms`);
      ac.abort(err);
      for (const w of group) w.reject(err);
    }, this.deadlineMs);
    const texts = group.length === 1 ? group[0]!.texts : group.flatMap((w) => w.texts);
    this.pool.run('score', { texts }, { tenant: group[0]!.tenant, signal: ac.signal }).then(
      (results) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        let i = 0;
        for (const w of group) {
          w.resolve(results.slice(i, i + w.texts.length));
          i += w.texts.length;
        }
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        for (const w of group) w.reject(err);
      },
    );
  }
}
