import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ClassifyInput, ClassifyResult } from '../../workers/classify.js';

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

/** Named worker tasks and their payload/result types (workers/index.ts). */
export interface WorkerTasks {
  countTokens: { in: { texts: string[] }; out: number };
  score: { in: { texts: string[] }; out: Record<string, number>[] };
  classify: { in: ClassifyInput; out: ClassifyResult };
  /** The scorer model's default per-category thresholds. */
  thresholds: { in: Record<string, never>; out: Record<string, number> };
}

/**
 * Typed facade over the piscina pool: CPU work (exact tokenization, guardrail scoring) never runs on the
 * event loop. The worker entry is the compiled dist/workers/index.js (`make build` produces it).
 */
export class WorkerPool {
  readonly #pool: Piscina;

  constructor(opts: { min: number; max: number; env?: Record<string, string> }) {
    const filename = join(projectRoot(), 'dist', 'workers', 'index.js');
    if (!existsSync(filename)) throw new Error(`worker entry ${filename} missing: run make build`);
    this.#pool = new Piscina({
      filename,
      minThreads: opts.min,
      maxThreads: opts.max,
      idleTimeout: 60_000,
      env: { ...process.env, ...(opts.env ?? {}) },
    });
  }

  run<K extends keyof WorkerTasks>(name: K, payload: WorkerTasks[K]['in'], signal?: AbortSignal): Promise<WorkerTasks[K]['out']> {
    return this.#pool.run(payload, signal ? { name, signal } : { name }) as Promise<WorkerTasks[K]['out']>;
  }

  get threads(): number {
    return this.#pool.threads.length;
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
