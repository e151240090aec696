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
 * once (~2-5 ms of scoring). A request whose texts would take it past this goes to the worker pool, so a burst of
 * documents spreads over the scoring threads instead of queueing behind the loop.
 */
export const DEFAULT_LOOP_BACKLOG_CHARS = 64 * 1024;

interface Job {
  texts: readonly string[];
  out: Scores[];
  /** The text being scored, and its steps. */
  at: number;
  steps: Generator<void, GuardScores, void> | null;
  chars: number;
  resolve: (scores: Scores[]) => void;
  reject: (e: unknown) => void;
}

/**
 * Scores texts too long to score in one go on the event loop (over guardrails.inlineMaxChars) in steps of about
 * SLICE_CHARS characters, between the loop's I/O (setImmediate), the requests waiting taking turns. A pasted
 * document then needs no scoring thread: no ~20 MiB thread started for it, no hand-off, no wait for a thread to be
 * scheduled, and other requests wait for one step per document in a turn instead of the whole document. The scores are those of the one-pass scorer
 * (src/guard/sliced.ts). While more than `backlogChars` characters wait here, further requests go to the pool.
 */
export class SlicedScorer {
  readonly #jobs: Job[] = [];
  #next = 0;
  #backlog = 0;
  #scheduled = false;
  /** performance.now() when the last turn of steps started, while turns follow one another (else 0). */
  #lastTurn = 0;
  /** Texts scored here (a gauge on /metrics). */
  scored = 0;

  constructor(
    readonly model: GuardModel,
    /** Most characters waiting here at once; more go to the pool. */
    readonly backlogChars: number,
  ) {}

  /** Characters waiting to be scored here. */
  get backlog(): number {
    return this.#backlog;
  }

  /** The scores of `texts`, computed in steps on the event loop; null when the backlog is full (use the pool). */
  score(texts: readonly string[]): Promise<Scores[]> | null {
    let chars = 0;
    for (const t of texts) chars += t.length;
    if (texts.length === 0) return Promise.resolve([]);
    if (this.#backlog + chars > this.backlogChars) return null;
    this.#backlog += chars;
    return new Promise((resolve, reject) => {
      this.#jobs.push({ texts, out: new Array<Scores>(texts.length), at: 0, steps: null, chars, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#turn);
      }
    });
  }

  /**
   * One turn's steps: every waiting job advances by one step, then the jobs go on in turn until the turn's budget has
   * gone (TURN_MS, or TURN_SHARE of the time since the last turn of steps) or nothing waits. The first pass keeps a
   * document's wait a number of turns, whatever their length: on a saturated loop a turn can take tens of
   * milliseconds of I/O, and a fixed time budget per turn then starved the documents past the scoring deadline (503
   * `unavailable` at 256 connections). Its cost is bounded by the backlog: at most backlogChars / SLICE_CHARS steps
   * in one turn (~2 ms at the default).
   *
   * No scoring deadline here (the pool's guardrails.timeoutMs): the pool's bounds a wait on threads that may all be
   * busy or still starting, while these steps advance with the loop that serves the request itself, every job by one
   * slice per turn. A deadline checked between steps failed documents only after the whole process had stalled (a
   * long collection, the host), when their requests were as late anyway: a 256-connection run with a pasted document
   * in one request of five had 2-15 such 503s a minute and the pool none.
   */
  readonly #turn = (): void => {
    this.#scheduled = false;
    const start = performance.now();
    const since = this.#lastTurn === 0 ? 0 : start - this.#lastTurn;
    const until = start + Math.min(MAX_TURN_MS, Math.max(TURN_MS, since * TURN_SHARE));
    let pass = this.#jobs.length;
    this.#next = 0;
    let now = 0;
    while (this.#jobs.length > 0 && (pass > 0 || now < until)) {
      if (this.#next >= this.#jobs.length) this.#next = 0;
      const job = this.#jobs[this.#next]!;
      pass--;
      let finished: boolean;
      try {
        finished = this.#step(job);
      } catch (e) {
        this.#remove(job);
        job.reject(e);
        continue;
      }
      now = performance.now();
      if (finished) {
        this.#remove(job);
        this.scored += job.texts.length;
        job.resolve(job.out);
      } else this.#next++;
    }
    if (this.#jobs.length > 0) {
      this.#lastTurn = start;
      this.#scheduled = true;
      setImmediate(this.#turn);
    } else this.#lastTurn = 0;
  };

  /** Advances a job by one step; true when all its texts are scored. */
  #step(job: Job): boolean {
    job.steps ??= scoreInSteps(this.model, job.texts[job.at]!, SLICE_CHARS);
    const r = job.steps.next();
    if (r.done !== true) return false;
    job.out[job.at] = r.value;
    job.steps = null;
    return ++job.at === job.texts.length;
  }

  #remove(job: Job): void {
    const i = this.#jobs.indexOf(job);
    this.#jobs.splice(i, 1);
    if (i < this.#next) this.#next--;
    this.#backlog -= job.chars;
  }
}
