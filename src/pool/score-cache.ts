import type { InlineScorer } from './inline-scorer.js';
import type { SlicedScorer } from './sliced-scorer.js';
import type { ScoreBatcher, ScoreOptions } from './score-batcher.js';

type Scores = Record<string, number>;

/** A request's texts the cache does not know, and where their scores go. */
interface Job {
  out: Scores[];
  missing: string[];
  /** Where each missing text's scores go in `out`. */
  idx: number[];
  /** The cache key of each missing text (null: too long to keep). */
  keyOf: (string | null)[];
  tenant: string;
  opts: ScoreOptions;
}

export interface ScoreCacheOptions {
  /** Most texts remembered (least recently used first out). */
  maxEntries?: number;
  /** Most characters of text held as keys, over all entries. */
  maxChars?: number;
  /** Longer texts are always scored, never kept (a long document rarely repeats; its key would be big). */
  maxTextChars?: number;
}

/**
 * Remembers guardrail scores per (organization, text) in front of the score batcher. The scorer is a pure
 * function of the text for the life of the process (each worker loads one model file once), so a text seen
 * before needs no pool task: a conversation re-sends its system prompt and every earlier turn with each new
 * turn, and an application sends the same system prompt with every request. A request whose texts are all
 * known costs no structured clone, no worker wake-up and no batch; the others send only their new texts.
 * Thresholds are applied by the caller to the scores, so a threshold change never needs the cache cleared.
 *
 * Keyed by organization as well as text, so one organization's requests never answer faster because another
 * organization sent the same words (no cross-tenant timing signal). Bounded in entries and in characters.
 * Returned score objects are shared and frozen.
 */
export class ScoreCache {
  readonly #inner: Pick<ScoreBatcher, 'score'>;
  readonly #maxEntries: number;
  readonly #maxChars: number;
  readonly #maxTextChars: number;
  /** Requests nobody waits on (ScoreOptions.linger): their scoring, run on the next setImmediate. */
  #deferred: (() => void)[] = [];
  /** Insertion order is recency: a hit is moved to the end, eviction takes from the front. */
  readonly #entries = new Map<string, Readonly<Scores>>();
  #chars = 0;
  hits = 0;
  misses = 0;
  /** Texts of the misses scored on the event loop (the rest went to the worker pool). */
  inlined = 0;
  /**
   * Scores a request's missing texts on the event loop when they are short enough (inline-scorer.ts); null until
   * the model has been handed over by a worker, and when inline scoring is off.
   */
  inline: Pick<InlineScorer, 'scoreIfShort'> | null = null;
  /**
   * Scores longer texts on the event loop a slice at a time while the organization's share of its backlog has room
   * (sliced-scorer.ts); null when off (guardrails.loopBacklogChars 0) or without a model. What it does not take goes
   * to the pool.
   */
  sliced: Pick<SlicedScorer, 'score' | 'scored' | 'backlog'> | null = null;

  constructor(inner: Pick<ScoreBatcher, 'score'>, opts: ScoreCacheOptions = {}) {
    this.#inner = inner;
    this.#maxEntries = opts.maxEntries ?? 4096;
    this.#maxChars = opts.maxChars ?? 4 * 1024 * 1024;
    this.#maxTextChars = opts.maxTextChars ?? 16 * 1024;
  }

  get size(): number {
    return this.#entries.size;
  }

  score(texts: string[], tenant: string, opts: ScoreOptions = {}): Promise<Scores[]> {
    const out: Scores[] = new Array<Scores>(texts.length);
    let missing: string[] | null = null;
    let at: number[] | null = null;
    /** The cache key of each missing text (null: too long to keep), built once: the string and its hash. */
    let keys: (string | null)[] | null = null;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const key = text.length <= this.#maxTextChars ? `${tenant}\u0000${text}` : null;
      const known = key === null ? undefined : this.#entries.get(key);
      if (known !== undefined) {
        this.#entries.delete(key!);
        this.#entries.set(key!, known);
        out[i] = known;
        this.hits++;
        continue;
      }
      this.misses++;
      (missing ??= []).push(text);
      (at ??= []).push(i);
      (keys ??= []).push(key);
    }
    if (missing === null) return Promise.resolve(out);
    const job: Job = { out, missing, idx: at!, keyOf: keys!, tenant, opts };
    if (opts.linger !== true) return this.#run(job);
    // Nobody waits on these scores (monitor mode): they are computed after the turn's I/O callbacks, so the
    // request's upstream call leaves first instead of waiting for its texts to be scored on the event loop.
    return new Promise((resolve, reject) => {
      this.#deferred.push(() => {
        try {
          this.#run(job).then(resolve, reject);
        } catch (e) {
          reject(e);
        }
      });
      if (this.#deferred.length === 1) setImmediate(this.#runDeferred);
    });
  }

  readonly #runDeferred = (): void => {
    const jobs = this.#deferred;
    this.#deferred = [];
    for (const run of jobs) run();
  };

  /**
   * Scores a request's missing texts: inline when short enough (see `inline`), else in slices on the event loop
   * while it has room (see `sliced`), else in the pool.
   */
  #run(job: Job): Promise<Scores[]> {
    const { out, missing, idx, keyOf, opts } = job;
    const scored = this.inline?.scoreIfShort(missing) ?? null;
    if (scored !== null) {
      opts.onDispatch?.();
      this.inlined += missing.length;
      this.#fill(out, idx, keyOf, scored);
      return Promise.resolve(out);
    }
    let pending = this.sliced?.score(missing, job.tenant) ?? null;
    if (pending !== null) opts.onDispatch?.();
    else pending = this.#inner.score(missing, job.tenant, opts);
    return pending.then((scores) => {
      this.#fill(out, idx, keyOf, scores);
      return out;
    });
  }

  /** Puts the scores of the missing texts (at `idx` in `out`) in place and remembers them. */
  #fill(out: Scores[], idx: number[], keyOf: (string | null)[], scores: Scores[]): void {
    for (let j = 0; j < idx.length; j++) {
      const s = Object.freeze(scores[j]!);
      out[idx[j]!] = s;
      const key = keyOf[j]!;
      if (key !== null) this.#remember(key, s);
    }
  }

  #remember(key: string, scores: Readonly<Scores>): void {
    if (this.#entries.has(key)) return;
    this.#entries.set(key, scores);
    this.#chars += key.length;
    while (this.#entries.size > this.#maxEntries || this.#chars > this.#maxChars) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
      this.#chars -= oldest.value.length;
    }
  }
}
