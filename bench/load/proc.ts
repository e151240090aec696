import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function startNode(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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

/** Resident set size (MiB) and CPU time (ms, user+system) of a process, from /proc. */
export function procStats(pid: number): { rssMiB: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMiB: rssKb / 1024, cpuMs: (ticks * 1000) / 100 };
}
