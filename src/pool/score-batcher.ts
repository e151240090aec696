import { performance } from 'node:perf_hooks';
import type { WorkerPool } from './pool.js';
import { CallAbort } from '../upstream/call-abort.js';

type Scores = Record<string, number>;

interface Waiter {
  texts: string[];
  resolve: (r: Scores[]) => void;
  reject: (e: unknown) => void;
  /** performance.now() by which this request must have its scores (its own deadline, whatever batch it is in). */
  due: number;
  /** Answered (scores, failure or deadline): nothing else reaches it. */
  done: boolean;
  /** Called when its texts join a pool task (after any linger). */
  onDispatch: (() => void) | undefined;
}

/** How a caller asks for scores (see ScoreBatcher.score). */
export interface ScoreOptions {
  /** Nobody waits on the result yet (monitor mode): the texts may wait up to LINGER_MS for company. */
  linger?: boolean;
  /** Called once the texts leave the linger and join a pool task, so scoring time can be measured from there. */
  onDispatch?: () => void;
}

interface Batch {
  tenant: string;
  /** In arrival order, so their deadlines never decrease. */
  waiters: Waiter[];
  count: number;
  /** The waiters whose texts went to the worker, fixed when the task starts; null while the task is queued. */
  sent: Waiter[] | null;
  ac: CallAbort;
  timer: NodeJS.Timeout | null;
}

/** Texts per pool task: big enough to amortise the hand-off, small enough to spread over the workers. */
const MAX_TEXTS_PER_TASK = 64;

/**
 * How long a request that does not wait for its verdict (guardrails `monitor`: the scores are only logged and
 * counted) may sit before its texts go to the pool. At 500 req/s that gathers about ten requests per task
 * instead of one: measured at a fixed 500 req/s (default store, monitor), the process's CPU per request fell
 * from 1.40 / 1.44 to 1.13 / 1.15 ms (interleaved runs) and the added p99 with it; every hand-off costs a
 * structured clone, a futex wake of the worker and a message back. A request that waits (enforce) never
 * lingers, and one that arrives flushes everything lingering with it.
 */
export const LINGER_MS = 20;

/**
 * Added to the scoring deadline of requests whose texts go to the pool while it is cold (WorkerPool.scoringCold: a
 * thread must start, import the worker and compile the scorer first, ~100 ms here and more on a busy machine).
 * Scoring threads start on demand, so the first long text after an idle minute would otherwise risk a 503
 * `unavailable` for the pool's own start-up, not for an overload.
 */
export const COLD_START_ALLOWANCE_MS = 1000;

/**
 * Micro-batches guardrail scoring: every request of one organization that asks within the same event-loop
 * turn shares one pool task (dispatched on setImmediate, so no added wait; a request nobody waits on may linger
 * for company, see LINGER_MS), and requests of later turns join
 * that task for as long as it still waits in the pool's fair queue (its texts are gathered when it starts), so
 * under load a busy pool sees one task per free worker instead of one per turn. Batches never mix
 * organizations: each is a task of its tenant in the pool's fair queue, so one organization's big prompts
 * cannot make another organization's batch miss its deadline. The pool hand-off (structured clone, message port,
 * worker wake-up) was the largest single CPU cost per request in the load benchmark; batching pays it once
 * per task instead of once per request.
 *
 * Every request keeps its own deadline (from its score() call): one that passes fails that request, which the
 * inspect stage answers with 503 and `x-svc-guardrails: unavailable` (monitor mode serves it). The deadline
 * never kills a worker: a task whose requests have all had their verdict is dropped if still queued, else it
 * finishes and its late results are discarded.
 */
export class ScoreBatcher {
  #waiting: Waiter[] = [];
  #tenants: string[] = [];
  #waitingTexts = 0;
  #scheduled = false;
  /** The linger timer while only non-waiting requests are gathered (see LINGER_MS). */
  #linger: NodeJS.Timeout | null = null;
  /** Per organization, the batch still queued in the pool that later requests may join. */
  readonly #open = new Map<string, Batch>();

  constructor(
    private readonly pool: Pick<WorkerPool, 'run'> & Partial<Pick<WorkerPool, 'scoringCold'>>,
    private readonly deadlineMs: number,
  ) {}

  /** Scores `texts` for `tenant` (see ScoreOptions); the deadline counts from this call, linger included. */
  score(texts: string[], tenant: string, opts: ScoreOptions = {}): Promise<Scores[]> {
    const linger = opts.linger === true;
    return new Promise((resolve, reject) => {
      this.#waiting.push({ texts, resolve, reject, due: performance.now() + this.deadlineMs, done: false, onDispatch: opts.onDispatch });
      this.#tenants.push(tenant);
      this.#waitingTexts += texts.length;
      if (this.#scheduled) return;
      if (linger && this.#waitingTexts < MAX_TEXTS_PER_TASK) {
        this.#linger ??= setTimeout(() => this.#flush(), LINGER_MS);
        return;
      }
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#linger !== null) clearTimeout(this.#linger);
    this.#linger = null;
    const waiting = this.#waiting;
    const tenants = this.#tenants;
    this.#waiting = [];
    this.#tenants = [];
    this.#waitingTexts = 0;
    const fresh: Batch[] = [];
    const allowance = this.pool.scoringCold === true ? COLD_START_ALLOWANCE_MS : 0;
    for (let i = 0; i < waiting.length; i++) {
      const w = waiting[i]!;
      w.due += allowance;
      const tenant = tenants[i]!;
      let open = this.#open.get(tenant);
      if (open !== undefined && open.count > 0 && open.count + w.texts.length > MAX_TEXTS_PER_TASK) open = undefined;
      if (open === undefined) {
        open = { tenant, waiters: [], count: 0, sent: null, ac: new CallAbort(), timer: null };
        this.#open.set(tenant, open);
        fresh.push(open);
      }
      const b = open;
      w.onDispatch?.();
      b.waiters.push(w);
      b.count += w.texts.length;
      // The first waiter's deadline is the batch's earliest (it may have lingered before this turn).
      b.timer ??= setTimeout(this.#deadline, Math.max(0, w.due - performance.now()), b);
    }
    // Dispatched once every request of the turn is in: a task that finds a free worker starts at once.
    for (const b of fresh) this.#dispatch(b);
  }

  /** The batch's texts, when its task starts: from then on nobody joins it. */
  #start(b: Batch): { texts: string[] } {
    if (this.#open.get(b.tenant) === b) this.#open.delete(b.tenant);
    const sent = b.waiters.filter((w) => !w.done);
    b.sent = sent;
    return { texts: sent.length === 1 ? sent[0]!.texts : sent.flatMap((w) => w.texts) };
  }

  /**
   * A deadline timer fired. Timers run at the start of an event-loop turn, before the turn polls for I/O, and the
   * worker's answer is I/O (a message on its port): after the loop was blocked past a deadline (a burst of
   * thousands of requests, a long collection), a task that finished in time would be failed before its answer is
   * read. So the verdict waits for the end of this same turn (setImmediate runs after the poll): an answer that
   * has arrived by then is used, and a request still without one is failed then.
   */
  readonly #deadline = (b: Batch): void => {
    b.timer = null;
    setImmediate(() => this.#expire(b));
  };

  /** Fails the requests whose deadline has passed; drops the task if it is still queued and nobody is left. */
  #expire(b: Batch): void {
    // A request that joined meanwhile may have armed a timer for its own deadline: it is re-armed below.
    if (b.timer !== null) clearTimeout(b.timer);
    b.timer = null;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    let err: Error | null = null;
    for (const w of b.waiters) {
      if (w.done) continue;
      // A timer may fire up to a millisecond before the clock reads its due time: no busy re-arming for that.
      if (w.due <= now + 1) {
        w.done = true;
        err ??= new Error(`guardrail scoring exceeded ${this.deadlineMs} ms`);
        w.reject(err);
      } else next = Math.min(next, w.due);
    }
    if (next !== Number.POSITIVE_INFINITY) {
      b.timer = setTimeout(this.#deadline, next - now, b);
      return;
    }
    if (b.sent === null) {
      // Every request in it has its verdict: the task leaves the fair queue before it starts.
      if (this.#open.get(b.tenant) === b) this.#open.delete(b.tenant);
      b.ac.abort(err ?? new Error(`guardrail scoring exceeded ${this.deadlineMs} ms`));
    }
  }

  #dispatch(b: Batch): void {
    // The deadline bounds the *wait*, never the worker: an abort handed to piscina terminates the worker thread
    // and starts a new one (~250 ms of CPU each, so an overload spiralled into worker churn). The signal goes
    // to the pool's fair queue only: a batch still queued when its requests' deadlines pass is dropped before it
    // starts, while a batch already running finishes on its worker and its late results are discarded.
    this.pool.run('score', () => this.#start(b), { tenant: b.tenant, signal: b.ac }).then(
      (results) => {
        if (b.timer !== null) clearTimeout(b.timer);
        b.timer = null;
        let i = 0;
        for (const w of b.sent ?? []) {
          if (!w.done) {
            w.done = true;
            w.resolve(results.slice(i, i + w.texts.length));
          }
          i += w.texts.length;
        }
      },
      (err: unknown) => {
        if (b.timer !== null) clearTimeout(b.timer);
        b.timer = null;
        if (this.#open.get(b.tenant) === b) this.#open.delete(b.tenant);
        for (const w of b.waiters) {
          if (w.done) continue;
          w.done = true;
          w.reject(err);
        }
      },
    );
  }
}
