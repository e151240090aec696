import { performance } from 'node:perf_hooks';
import type { GuardModel, GuardScores } from '../guard/model.js';
import { scoreInSteps } from '../guard/sliced.js';

type Scores = Record<string, number>;

/**
 * Characters of text per step (a group of whole windows spanning at most this many). A step over 2 KB of prose takes
 * ~0.07 ms (p50; p99 0.11-0.23 ms), about what handing one text to a worker thread costs the event loop (50-80 us),
 * and the steps of a document add 10-20% to scoring it in one pass (their overlapping context; 1 KB steps added
 * 30-36%): bench/micro/guard-score.ts.
 */
export const SLICE_CHARS = 2048;

/**
 * Time the steps of one event-loop turn may take, once every waiting document has had its step, before the loop goes
 * back to I/O: on an idle loop a document is scored in a few turns, and a request behind it waits about this long.
 */
export const TURN_MS = 0.25;

/**
 * On a loop whose turns are long (hundreds of connections: each turn serves many requests' I/O) the steps may take
 * this share of the time since the previous turn of steps, up to MAX_TURN_MS, so that a document is scored in a turn
 * or two instead of one step per turn of tens of milliseconds (a 16 KB document in eight such turns held its request
 * for most of a second: 1,024 connections ran 16% fewer requests a second than with the pool).
 */
const TURN_SHARE = 0.1;
const MAX_TURN_MS = 5;

/**
 * Default of `guardrails.loopBacklogChars`: most characters of long texts waiting to be scored on the event loop at
 * once (~2-5 ms of scoring; one organization's share, see SlicedScorer). A request whose texts would take it past
 * this goes to the worker pool, so a burst of documents spreads over the scoring threads instead of queueing behind
 * the loop.
 */
export const DEFAULT_LOOP_BACKLOG_CHARS = 64 * 1024;

interface Job {
  readonly tenant: Tenant;
  texts: readonly string[];
  out: Scores[];
  /** The text being scored, and its steps. */
  at: number;
  steps: Generator<void, GuardScores, void> | null;
  chars: number;
  resolve: (scores: Scores[]) => void;
  reject: (e: unknown) => void;
}

/** One organization's documents waiting here, taken in turn. */
interface Tenant {
  readonly id: string;
  readonly jobs: Job[];
  /** The job that has the tenant's next step. */
  next: number;
  /** Characters of its texts waiting. */
  chars: number;
}

/**
 * Scores texts too long to score in one go on the event loop (over guardrails.inlineMaxChars) in steps of about
 * SLICE_CHARS characters, between the loop's I/O (setImmediate), the requests waiting taking turns. A pasted
 * document then needs no scoring thread: no ~20 MiB thread started for it, no hand-off, no wait for a thread to be
 * scheduled, and other requests wait for one step per document in a turn instead of the whole document. The scores are
 * those of the one-pass scorer (src/guard/sliced.ts).
 *
 * Shared fairly between organizations, as the pool's fair queue is: the steps go to the organizations waiting in turn
 * (round robin; within one, to its documents in turn), and an organization may have at most its share of
 * `backlogChars` waiting, `backlogChars` divided by the organizations waiting (itself included). An organization
 * pasting documents as fast as it can therefore fills the backlog alone, and another one's document is still taken
 * here at once and gets every other step. All together never hold more than twice `backlogChars` (an organization
 * arriving beside one whose backlog is full); what is not taken goes to the pool, whose queue is fair as well.
 */
export class SlicedScorer {
  /** Insertion order is the round robin: the tenant that has had a step goes to the back. */
  readonly #tenants = new Map<string, Tenant>();
  #jobs = 0;
  #backlog = 0;
  #scheduled = false;
  /** performance.now() when the last turn of steps started, while turns follow one another (else 0). */
  #lastTurn = 0;
  /** Texts scored here (a gauge on /metrics). */
  scored = 0;

  constructor(
    readonly model: GuardModel,
    /** Most characters one organization may have waiting here while alone; more go to the pool. */
    readonly backlogChars: number,
  ) {}

  /** Characters waiting to be scored here. */
  get backlog(): number {
    return this.#backlog;
  }

  /**
   * The scores of `texts`, computed in steps on the event loop; null when `tenant`'s share of the backlog has no room
   * for them (use the pool).
   */
  score(texts: readonly string[], tenant = ''): Promise<Scores[]> | null {
    let chars = 0;
    for (const t of texts) chars += t.length;
    if (texts.length === 0) return Promise.resolve([]);
    const known = this.#tenants.get(tenant);
    const share = this.backlogChars / (this.#tenants.size + (known === undefined ? 1 : 0));
    if ((known?.chars ?? 0) + chars > share || this.#backlog + chars > 2 * this.backlogChars) return null;
    const t = known ?? { id: tenant, jobs: [], next: 0, chars: 0 };
    if (known === undefined) this.#tenants.set(tenant, t);
    t.chars += chars;
    this.#backlog += chars;
    this.#jobs++;
    return new Promise((resolve, reject) => {
      t.jobs.push({ tenant: t, texts, out: new Array<Scores>(texts.length), at: 0, steps: null, chars, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#turn);
      }
    });
  }

  /**
   * One turn's steps: at least as many as there are documents waiting, then more until the turn's budget has gone
   * (TURN_MS, or TURN_SHARE of the time since the last turn of steps) or nothing waits; each to the next organization
   * in turn. The count keeps a document's wait a number of turns, whatever their length: on a saturated loop a turn
   * can take tens of milliseconds of I/O, and a fixed time budget per turn then starved the documents past the scoring
   * deadline (503 `unavailable` at 256 connections). Its cost is bounded by the backlog: at most
   * 2 * backlogChars / SLICE_CHARS steps in one turn (~4 ms at the default).
   *
   * No scoring deadline here (the pool's guardrails.timeoutMs): the pool's bounds a wait on threads that may all be
   * busy or still starting, while these steps advance with the loop that serves the request itself. A deadline
   * checked between steps failed documents only after the whole process had stalled (a long collection, the host),
   * when their requests were as late anyway: a 256-connection run with a pasted document in one request of five had
   * 2-15 such 503s a minute and the pool none.
   */
  readonly #turn = (): void => {
    this.#scheduled = false;
    const start = performance.now();
    const since = this.#lastTurn === 0 ? 0 : start - this.#lastTurn;
    const until = start + Math.min(MAX_TURN_MS, Math.max(TURN_MS, since * TURN_SHARE));
    let pass = this.#jobs;
    let now = 0;
    for (let t = this.#first(); t !== null && (pass > 0 || now < until); t = this.#first()) {
      pass--;
      this.#advance(t);
      now = performance.now();
    }
    if (this.#jobs > 0) {
      this.#lastTurn = start;
      this.#scheduled = true;
      setImmediate(this.#turn);
    } else this.#lastTurn = 0;
  };

  #first(): Tenant | null {
    for (const t of this.#tenants.values()) return t;
    return null;
  }

  /** Gives `t` a step (its next document's), then sends it to the back of the round robin. */
  #advance(t: Tenant): void {
    const job = t.jobs[t.next]!;
    let finished: boolean;
    try {
      finished = this.#step(job);
    } catch (e) {
      this.#remove(job);
      job.reject(e);
      return;
    }
    if (finished) {
      this.#remove(job);
      this.scored += job.texts.length;
      job.resolve(job.out);
      return;
    }
    t.next = (t.next + 1) % t.jobs.length;
    if (this.#tenants.size > 1) {
      this.#tenants.delete(t.id);
      this.#tenants.set(t.id, t);
    }
  }

  /** Advances a job by one step; true when all its texts are scored. */
  #step(job: Job): boolean {
    job.steps ??= scoreInSteps(this.model, job.texts[job.at]!, SLICE_CHARS);
    const r = job.steps.next();
    if (r.done !== true) return false;
    job.out[job.at] = r.value;
    job.steps = null;
    return ++job.at === job.texts.length;
  }

  /** Takes a finished (or failed) job out; its tenant goes to the back of the round robin, or out when done. */
  #remove(job: Job): void {
    const t = job.tenant;
    const i = t.jobs.indexOf(job);
    t.jobs.splice(i, 1);
    if (i < t.next) t.next--;
    if (t.next >= t.jobs.length) t.next = 0;
    t.chars -= job.chars;
    this.#backlog -= job.chars;
    this.#jobs--;
    this.#tenants.delete(t.id);
    if (t.jobs.length > 0) this.#tenants.set(t.id, t);
  }
}
