/**
 * The file piscina loads in each worker thread: a CommonJS module that loads the task modules (workers/index.ts)
 * with import(), never with require().
 *
 * piscina first require()s its filename. On Node 20.19+ that loads an ES module synchronously (require(esm)),
 * and a process that exits while a thread is still in that synchronous load aborts with a V8 fatal error
 * ("v8::Module::IsGraphAsync must be used on an instantiated module"): measured, 2 of 300 processes exiting 0-60 ms
 * after starting a pool on dist/workers/index.js, 0 of 300 on this entry (test/unit/pool/worker-entry.test.ts).
 * Loading through import() goes through the asynchronous ES module loader, which an exit simply stops.
 */
import type * as Tasks from './index.js' with { 'resolution-mode': 'import' };
import type { WorkerTasks } from '../src/pool/pool.js' with { 'resolution-mode': 'import' };

/** The pool's task names (src/pool/pool.ts): a name the pool lists and workers/index.ts lacks does not compile. */
type TaskName = keyof WorkerTasks;

// Started when piscina loads this file (as the thread starts), so the first task finds the modules loaded.
const tasks: Promise<typeof Tasks> = import('./index.js');
// A failed load rejects each task that awaits it; this keeps the rejection from being reported as unhandled first.
tasks.catch(() => undefined);

function task<K extends TaskName>(name: K): (input: Parameters<(typeof Tasks)[K]>[0]) => Promise<ReturnType<(typeof Tasks)[K]>> {
  return async (input) => {
    const run = (await tasks)[name] as (input: Parameters<(typeof Tasks)[K]>[0]) => ReturnType<(typeof Tasks)[K]>;
    return run(input);
  };
}

export const countTokens = task('countTokens');
export const score = task('score');
export const classify = task('classify');
export const thresholds = task('thresholds');
