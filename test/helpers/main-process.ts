import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './ports.js';

export { freePort };

/** The repository root (tests run the compiled gateway from dist/, as `make run` does). */
export const ROOT = join(import.meta.dirname, '..', '..');


export interface MainProcess {
  child: ChildProcess;
  /** Everything the process wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Resolves true once `text` appears on stdout or stderr (false after `timeoutMs` or on exit). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Starts `node dist/src/main.js` (what `make run` runs) with exactly `env` plus PATH and HOME: no credentials
 * leak in from the environment running the tests.
 */
export function startMain(env: Record<string, string>, cwd = ROOT): MainProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of waiters) w();
  };
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    wake();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    wake();
    resolve(code);
  }));
  const has = (t: string | RegExp): boolean => {
    const all = out + err;
    return typeof t === 'string' ? all.includes(t) : t.test(all);
  };
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(text, timeoutMs = 30_000) {
      return new Promise((resolve) => {
        const check = (): void => {
          if (has(text)) done(true);
          else if (child.exitCode !== null || child.signalCode !== null) done(false);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (v: boolean): void => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(v);
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

/** The dev key and the inference port the start-up banner printed. */
export function bannerFacts(stderr: string): { key: string | null; curl: string | null } {
  const key = /dev key\s+(sk-svc-\S+)/.exec(stderr)?.[1] ?? null;
  const curl = /^\s*(curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions[^\n]*\\\n[^\n]*)$/m.exec(stderr)?.[1] ?? null;
  return { key, curl };
}
