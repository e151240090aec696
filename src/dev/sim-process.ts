/**
 * The dev bootstrap's simulator in a process of its own. It stands in for remote providers, and a remote provider
 * never shares the gateway's event loop, threads or heap: in the gateway's own process it did, so `make run` measured
 * under load was the gateway plus the simulator on one thread (1,349 requests/s at 64 connections, 0.90 ms of CPU and
 * 45 ms p50 per request, against 2,198 requests/s, 0.39 ms and 26 ms with the simulator apart; bench/results/cpu.md,
 * session 36), and the process's resident memory held the simulator's too.
 *
 * The child exits when the gateway does (the IPC channel closes, even on SIGKILL). If it dies while the gateway
 * runs, it is started again on the same port, so the catalog's URLs stay right.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface SimulatorProcess {
  readonly url: string;
  /** The simulator's current process id (another one after a restart). */
  pid(): number;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./sim-child.js', import.meta.url));
/** Restarts closer together than this are not attempted (a simulator that cannot start would spin). */
const RESTART_MIN_MS = 1_000;

function spawnChild(port: number): { child: ChildProcess; url: Promise<string> } {
  // No inherited node flags: a profiler or inspector flag given to the gateway is not meant for the simulator.
  const child = fork(CHILD, [String(port)], {
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // An error after start (a failed signal or disconnect) must not be an unhandled 'error' event that takes the gateway
  // down: the child's exit, which follows any error that matters, is what restarts it.
  child.on('error', () => {});
  const url = new Promise<string>((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      reject(new Error(`the dev simulator exited before it listened (${signal ?? `code ${code}`})`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (m: unknown) => {
      child.off('exit', onExit);
      const u = (m as { url?: unknown } | null)?.url;
      if (typeof u === 'string') resolve(u);
      else reject(new Error('the dev simulator sent no URL'));
    });
  });
  return { child, url };
}

/** Starts the simulator process on `port` (0: a free one) and resolves once it listens. */
export async function startSimulatorProcess(port: number, onRestart: (event: { ok: boolean; error?: string }) => void): Promise<SimulatorProcess> {
  const started = spawnChild(port);
  let child = started.child;
  const url = await started.url;
  const fixedPort = Number(new URL(url).port);
  let closing = false;
  let lastStart = Date.now();
  const watch = (c: ChildProcess): void => {
    c.once('exit', (code, signal) => {
      if (closing) return;
      const wait = Math.max(0, lastStart + RESTART_MIN_MS - Date.now());
      setTimeout(() => {
        if (closing) return;
        lastStart = Date.now();
        const next = spawnChild(fixedPort);
        child = next.child;
        watch(child);
        next.url.then(
          () => onRestart({ ok: true }),
          (e: unknown) => onRestart({ ok: false, error: `${(e as Error).message} (it had exited: ${signal ?? `code ${code}`})` }),
        );
      }, wait).unref();
    });
  };
  watch(child);
  return {
    url,
    pid: () => child.pid ?? -1,
    close() {
      closing = true;
      const c = child;
      if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.disconnect();
      });
    },
  };
}
