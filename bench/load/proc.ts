import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { DEMO_ALIASES, DEMO_CATALOG } from '../../src/routing/demo-catalog.js';

/**
 * Writes the config file of a gateway under test: the demo catalog pointed at the simulator at `simUrl`, its
 * aliases, ample dev credit, and `extra` (store, guardrails, log, workers...) on top.
 */
export function writeGatewayConfig(path: string, simUrl: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(
    path,
    JSON.stringify({
      host: '127.0.0.1',
      models: simulatedCatalog(DEMO_CATALOG, {}, simUrl).models,
      aliases: DEMO_ALIASES,
      dev: { creditUsd: 1_000_000 },
      ...extra,
    }),
  );
}

/** Extra node flags from an environment variable (space-separated), for flags NODE_OPTIONS refuses (--cpu-prof). */
export function nodeArgsFrom(variable: string): string[] {
  return (process.env[variable] ?? '').split(' ').filter((a) => a !== '');
}

/** A JSON object from an environment variable (none: {}), merged over a gateway's config for A/B runs of one setting. */
export function configFrom(variable: string): Record<string, unknown> {
  const v: unknown = JSON.parse(process.env[variable] ?? '{}');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${variable} must be a JSON object`);
  return v as Record<string, unknown>;
}

/** The guardrail mode a bench runs the gateway in, from an environment variable: monitor (default) or enforce. */
export function guardModeFrom(variable: string): 'monitor' | 'enforce' {
  const mode = process.env[variable] ?? 'monitor';
  if (mode !== 'monitor' && mode !== 'enforce') throw new Error(`${variable} must be monitor or enforce, got "${mode}"`);
  return mode;
}

/** Starts the simulator (`cli.js sim`) of the build in `root` on a free port, runs `fn` with its URL once it answers, then stops it. */
export async function withSimulator<T>(root: string, fn: (simUrl: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const simUrl = `http://127.0.0.1:${port}`;
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(port)], {});
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    return await fn(simUrl);
  } finally {
    await stopNode(sim);
  }
}

/**
 * A node child process. Its stdout (the gateway's log lines) is discarded unless BENCH_STDOUT_DIR names a folder:
 * then each child's stdout goes to <dir>/<pid>.log, to read what a run's non-2xx answers were.
 */
export function startNode(args: string[], env: Record<string, string | undefined>): ChildProcess {
  const dir = process.env.BENCH_STDOUT_DIR;
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', dir ? 'pipe' : 'ignore', 'pipe'] });
  if (dir && child.stdout) child.stdout.pipe(createWriteStream(join(dir, `${child.pid ?? 'unknown'}.log`)));
  child.stderr?.on('data', (d: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(d);
  });
  return child;
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** Resident set size and its peak (VmHWM) in MiB, and CPU time (ms, user+system) of a process, from /proc. */
export function procStats(pid: number): { rssMiB: number; peakMiB: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMiB: rssKb / 1024, peakMiB: hwmKb / 1024, cpuMs: (ticks * 1000) / 100 };
}

/** The direct children of a process (SVC_PROCESSES: the gateway processes under the supervisor). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** SIGTERM and wait for the exit (so the port is free for the next run). */
export function stopNode(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A TCP port free on 127.0.0.1 right now (for a process the bench is about to start). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Pins a process and every one of its threads to the CPUs in `cpus` (taskset's list form, for example `1`);
 * threads it starts later inherit the mask. Returns false when taskset is missing or refuses.
 */
export function pinProcess(pid: number, cpus: string): boolean {
  const r = spawnSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
  return r.status === 0;
}
