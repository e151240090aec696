/**
 * SVC_PROCESSES=N: N gateway processes on one port. uWS listens with SO_REUSEPORT, so every child binds the
 * same port and the kernel spreads connections between them; all state that must be shared (credit,
 * limits, keys, health) lives in Redis, hence N > 1 requires the Redis store. The parent checks the port,
 * starts the children one after the other (the first seeds the dev org and key, the others find them),
 * forwards SIGINT/SIGTERM and restarts a child that dies after start-up.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { StartupError } from './startup.js';

/** Set in a child's environment: its index (0-based). */
export const PROCESS_INDEX_ENV = 'SVC_PROCESS_INDEX';
export const MAX_PROCESSES = 64;

/** SVC_PROCESSES: an integer 1..64, default 1. */
export function processCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PROCESSES) {
    throw new StartupError(`SVC_PROCESSES must be an integer from 1 to ${MAX_PROCESSES} (got "${raw}"); leave it unset for one process.`);
  }
  return n;
}

/** The index of this process when a parent started it, else null. */
export function processIndex(env: NodeJS.ProcessEnv): number | null {
  const raw = env[PROCESS_INDEX_ENV];
  return raw === undefined ? null : Number(raw);
}

/** A child tells its parent it is listening. */
export function reportReady(): void {
  process.send?.({ svc: 'ready' });
}

export interface Supervisor {
  stop(signal: NodeJS.Signals): Promise<void>;
}

function startChild(script: string, env: NodeJS.ProcessEnv, index: number): { child: ChildProcess; ready: Promise<void> } {
  const child = fork(script, process.argv.slice(2), { env: { ...env, [PROCESS_INDEX_ENV]: String(index) }, stdio: 'inherit' });
  const ready = new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      reject(new StartupError(`gateway process ${index} exited during start-up (${signal ?? `code ${code}`}); see its message above.`));
    child.once('exit', onExit);
    child.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && (m as { svc?: unknown }).svc === 'ready') {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return { child, ready };
}

/** Starts `n` children running `script` and resolves once all listen; rejects (and stops them) if one fails. */
export async function superviseProcesses(
  script: string,
  n: number,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<Supervisor> {
  const children: (ChildProcess | null)[] = new Array<ChildProcess | null>(n).fill(null);
  let stopping = false;
  const exited = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', () => r()));
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    stopping = true;
    const live = children.filter((c): c is ChildProcess => c !== null);
    for (const c of live) c.kill(signal);
    await Promise.all(live.map(exited));
  };
  const watch = (index: number, child: ChildProcess): void => {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log(`svc: gateway process ${index} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); restarting it in 1 s`);
      setTimeout(() => {
        if (stopping) return;
        const next = startChild(script, env, index);
        children[index] = next.child;
        next.ready.then(
          () => watch(index, next.child),
          (e: unknown) => log(`svc: ${(e as Error).message}`),
        );
      }, 1_000).unref();
    });
  };
  for (let i = 0; i < n; i++) {
    const { child, ready } = startChild(script, env, i);
    children[i] = child;
    try {
      await ready;
    } catch (e) {
      await stop('SIGTERM');
      throw e;
    }
    watch(i, child);
  }
  return { stop };
}
