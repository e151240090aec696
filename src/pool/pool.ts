import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ClassifyInput, ClassifyResult } from '../../workers/classify.js';
import type { SharedGuardModel } from '../guard/shared-model.js';
import { o200k } from '../tokens/o200k.js';
import { FairQueue, type QueueSignal } from './fair-queue.js';

/** Walks up from this module to the directory holding package.json (works from src/ and dist/src/). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('project root not found');
    dir = up;
  }
  return dir;
}

/**
 * V8 heap limits of a worker thread. Tasks are small and short (a batch of texts in, scores or a count out), so a
 * small young generation suffices: by default V8 lets each worker's new space grow to 16 MiB semi-spaces (about
 * 48 MiB), which under load stays resident in every worker. The old-generation cap is far above what a worker
 * holds (the guard model and the tokenizer live outside the JS heap) and only stops a runaway task.
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 } as const;

/** Named worker tasks and their payload/result types (workers/index.ts). */
export interface WorkerTasks {
  countTokens: { in: { texts: string[] }; out: number };
  score: { in: { texts: string[] }; out: Record<string, number>[] };
  classify: { in: ClassifyInput; out: ClassifyResult };
  /** The scorer model's default per-category thresholds. */
  thresholds: { in: Record<string, never>; out: Record<string, number> };
}

/** Who a task is for: its organization (fair share of the pool) and an optional abort. */
export interface TaskOptions {
  /** Organization id; tasks of the gateway itself (start-up) use ''. */
  tenant: string;
  /**
   * Drops the task while it still waits in the fair queue (the promise rejects with the reason). It is never
   * passed to piscina: piscina answers an abort of a running task by terminating the worker thread and starting
   * a new one, so a task that has started always runs to completion.
   */
  signal?: QueueSignal;
}

/**
 * How long the tokenizer thread outlives its last exact count of a long text (short ones are counted on the event loop,
 * INLINE_COUNT_MAX_CHARS). The thread (its isolate, ~11 MiB) is given back when unused and comes back at the next long
 * count; it counts from the event loop's o200k tables on shared memory (src/tokens/o200k.ts), so it has nothing to load.
 */
const TOKENIZER_IDLE_MS = 60_000;

/**
 * Texts adding up to at most this many characters are counted on the event loop (src/tokens/o200k.ts; 6-18 us on
 * average for the training prompts of that size, 43 us for 1,024 characters of prose: bench/micro/token-count.ts),
 * longer ones in the tokenizer thread. A hand-off to a thread costs 50-80 us of the event loop's CPU and a wake-up of the
 * thread (bench/results/cpu.md, session 16), so up to this bound counting here costs the loop no more than handing the
 * count over would, the request does not wait for a thread to be scheduled (or started: a count is off the usual path,
 * so the thread is usually not running), and a gateway whose prompts are short never starts the thread.
 */
export const INLINE_COUNT_MAX_CHARS = 1024;

/**
 * The merge work (O200k.countWithin: squared bytes of the pieces that are not whole tokens) a count on the event loop
 * may take (~40 us): 1,024 characters of prose take ~5,000; 1,024 letters without a space (0.3-0.8 ms on the loop) or
 * as many CJK characters (0.7-1 ms) are refused in 2-26 us and go to the tokenizer thread (bench/micro/token-count.ts).
 */
export const INLINE_COUNT_MERGE_BUDGET = 16_384;

/**
 * How long a scoring thread beyond `workers.min` outlives its last task. Short texts are scored on the event loop,
 * so a scoring thread is needed for long ones only (pasted documents, long conversations); ~20 MiB of resident
 * memory (its V8 heap and code) is given back while none come.
 */
const SCORING_IDLE_MS = 60_000;

/**
 * Scoring tasks handed to one worker at once. The second waits in the worker's message port and starts the
 * moment the first ends: with one task per worker the worker sat idle from each task's end until the busy
 * main thread had taken the result and posted the next, and a burst of 1,500 concurrent requests from one
 * organization right after start saw 20-79% of them miss the 250 ms scoring deadline (503,
 * x-svc-guardrails: unavailable; measured by hand with the gateway and the simulator in separate processes).
 */
export const TASKS_IN_FLIGHT_PER_WORKER = 2;

/**
 * Typed facade over the piscina pools: CPU work on long texts (exact tokenization, guardrail scoring) never runs on
 * the event loop; short texts are counted here (INLINE_COUNT_MAX_CHARS) and scored by src/pool/inline-scorer.ts. The
 * worker entry is the compiled dist/workers/entry.cjs, which loads workers/index.ts's tasks (`make build` produces both). Scoring threads
 * beyond `min` start on demand and stop when idle (SCORING_IDLE_MS); after adoptModel they read the guard model
 * from the shared memory of the thread that loaded it.
 * Tasks reach piscina through a per-organization fair queue with TASKS_IN_FLIGHT_PER_WORKER slots per thread:
 * one organization can hold at most half the slots (at least one thread's), and waiting organizations are
 * served round robin, so a flood from one tenant delays another tenant's task by at most the tasks already
 * handed to a worker (two short batches), never by the flood's backlog.
 *
 * Exact counts of long texts run on their own pool of at most one thread, started on demand and stopped when idle
 * (TOKENIZER_IDLE_MS), so a long count never holds up guardrail scoring (whose deadline is 250 ms by default).
 */
export class WorkerPool {
  #pool: Piscina;
  readonly #fair: FairQueue;
  readonly #tokenizer: Piscina;
  readonly #tokenizerFair = new FairQueue(1, 1);
  readonly #common: { filename: string; resourceLimits: typeof WORKER_RESOURCE_LIMITS; env: Record<string, string | undefined>; recordTiming: false };
  readonly #max: number;
  readonly #idleMs: number;
  #created = 0;
  /** Exact counts made on the event loop (short texts). */
  #inlineCounts = 0;
  /** No scoring thread has answered a task since the pool last had none (see scoringCold). */
  #cold = true;

  constructor(opts: { min: number; max: number; env?: Record<string, string>; tokenizerIdleMs?: number; idleMs?: number }) {
    const filename = join(projectRoot(), 'dist', 'workers', 'entry.cjs');
    if (!existsSync(filename)) throw new Error(`worker entry ${filename} missing: run make build`);
    // recordTiming off: piscina's run and wait histograms (two HdrHistograms of ~360 KB each per pool, a record per
    // task) are read by nothing here; the gateway's own metrics time the scoring.
    this.#common = { filename, resourceLimits: WORKER_RESOURCE_LIMITS, env: { ...process.env, ...(opts.env ?? {}) }, recordTiming: false };
    this.#max = opts.max;
    this.#idleMs = opts.idleMs ?? SCORING_IDLE_MS;
    // Until adoptModel (the gateway loads the model on its event loop at start and shares it), a thread loads the
    // model from its file.
    this.#pool = this.#scoringPool(opts.min, undefined);
    // The event loop's o200k tables (~4 MiB, loaded now rather than by the first request that needs a count), shared with
    // the tokenizer thread, which counts from the same memory.
    const workerData = { o200k: o200k().tables };
    this.#tokenizer = new Piscina({ ...this.#common, minThreads: 0, maxThreads: 1, idleTimeout: opts.tokenizerIdleMs ?? TOKENIZER_IDLE_MS, workerData });
    this.#tokenizer.on('workerCreate', () => this.#created++);
    // One organization: half the threads (at least one), each with its tasks in flight.
    this.#fair = new FairQueue(opts.max * TASKS_IN_FLIGHT_PER_WORKER, Math.max(1, Math.floor(opts.max / 2)) * TASKS_IN_FLIGHT_PER_WORKER);
  }

  #scoringPool(min: number, guardModel: SharedGuardModel | undefined): Piscina {
    const pool = new Piscina({
      ...this.#common,
      minThreads: min,
      maxThreads: this.#max,
      idleTimeout: this.#idleMs,
      concurrentTasksPerWorker: TASKS_IN_FLIGHT_PER_WORKER,
      ...(guardModel ? { workerData: { guardModel } } : {}),
    });
    pool.on('workerCreate', () => this.#created++);
    // piscina emits workerDestroy before it drops the thread from its list: count the threads after that.
    pool.on('workerDestroy', () =>
      setImmediate(() => {
        if (this.#pool === pool && pool.threads.length === 0) this.#cold = true;
      }),
    );
    return pool;
  }

  /**
   * True while a scoring task would wait for a thread to start and compile the scorer: no scoring thread has
   * answered a task since the pool last had none. The first long text after an idle minute then takes ~100 ms more
   * (measured: 182 against 84 ms for a 12 KB prompt), which the score batcher does not count against the scoring
   * deadline (src/pool/score-batcher.ts COLD_START_ALLOWANCE_MS).
   */
  get scoringCold(): boolean {
    return this.#cold;
  }

  /**
   * Hands the guard model the gateway loaded and shared (workers/guard.ts loadSharedModel) to every scoring thread
   * from now on, and keeps `min` threads (0: none until a task needs one). The scoring pool is replaced: its tasks already handed over
   * finish on the old threads, which then exit; new tasks go to the new pool, whose threads read the model from
   * shared memory when they start (no file parse). Short texts are scored on the event loop
   * (src/pool/inline-scorer.ts), so with the default 0 a gateway whose prompts are short runs no scoring thread at
   * all: measured at 64 connections, RSS under load 147 -> 121 MiB (peak 149 -> 128) and idle 116 -> 96 MiB.
   */
  async adoptModel(guardModel: SharedGuardModel, min: number): Promise<void> {
    const old = this.#pool;
    this.#pool = this.#scoringPool(min, guardModel);
    this.#cold = true;
    await old.close();
  }

  /**
   * Runs a task once the tenant's fair share allows. `payload` may be a function: it is called when the task
   * starts (not when it is queued), so a caller can keep adding work to a task that is still waiting.
   */
  run<K extends keyof WorkerTasks>(name: K, payload: WorkerTasks[K]['in'] | (() => WorkerTasks[K]['in']), opts: TaskOptions): Promise<WorkerTasks[K]['out']> {
    const { tenant, signal } = opts;
    const input = (): WorkerTasks[K]['in'] => (typeof payload === 'function' ? payload() : payload);
    if (name === 'countTokens') {
      const inline = typeof payload === 'function' ? null : this.#countIfShort(payload as WorkerTasks['countTokens']['in']);
      if (inline !== null) return Promise.resolve(inline as WorkerTasks[K]['out']);
      return this.#tokenizerFair.run(tenant, () => this.#tokenizer.run(input(), { name }) as Promise<WorkerTasks[K]['out']>, signal);
    }
    return this.#fair.run(tenant, () => this.#runScoring(name, input()), signal);
  }

  /** On the scoring pool in force when the task starts (adoptModel may have replaced the one it was queued for). */
  #runScoring<K extends keyof WorkerTasks>(name: K, input: WorkerTasks[K]['in']): Promise<WorkerTasks[K]['out']> {
    const scoring = this.#pool;
    return (scoring.run(input, { name }) as Promise<WorkerTasks[K]['out']>).then((out) => {
      if (this.#pool === scoring) this.#cold = false;
      return out;
    });
  }

  /**
   * The exact count of short texts, made here (INLINE_COUNT_MAX_CHARS); null when they go to the tokenizer thread: too
   * long, or with merges over INLINE_COUNT_MERGE_BUDGET (O200k.countWithin).
   */
  #countIfShort({ texts }: WorkerTasks['countTokens']['in']): number | null {
    let chars = 0;
    for (const t of texts) chars += t.length;
    if (chars > INLINE_COUNT_MAX_CHARS) return null;
    const n = o200k().countWithin(texts, INLINE_COUNT_MERGE_BUDGET);
    if (n < 0) return null;
    this.#inlineCounts++;
    return n;
  }

  /** Tasks started so far: handed to the workers, or exact counts made on the event loop (tests assert that a refused request started none). */
  get tasksStarted(): number {
    return this.#fair.started + this.#tokenizerFair.started + this.#inlineCounts;
  }

  /** Exact counts made on the event loop instead of in the tokenizer thread. */
  get inlineCounts(): number {
    return this.#inlineCounts;
  }

  /** Tasks waiting for a fair slot (all tenants). */
  get queued(): number {
    return this.#fair.queued + this.#tokenizerFair.queued;
  }

  /** Worker threads started since the pool was created (a respawned worker counts again). */
  get workersCreated(): number {
    return this.#created;
  }

  /** Live scoring threads. */
  get scoringThreads(): number {
    return this.#pool.threads.length;
  }

  /** Live threads: the scoring pool's and the tokenizer's (0 or 1). */
  get threads(): number {
    return this.scoringThreads + this.#tokenizer.threads.length;
  }

  async close(): Promise<void> {
    await Promise.all([this.#pool.destroy(), this.#tokenizer.destroy()]);
  }
}
