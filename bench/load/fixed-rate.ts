/**
 * The sustained bench's open-loop load and its host reading.
 *
 * - fixedRate(): request i is due at t0 + i/rate and its latency runs from that instant to the last byte of the
 *   response, however late the scheduler or a busy connection made the actual send (no coordinated omission).
 *   It returns the raw samples, so that rounds of one target, interleaved with other targets' rounds, are pooled
 *   into one distribution by summarize().
 * - hostStalls(): how often this machine takes a core away from a thread that never sleeps. One busy thread per
 *   CPU (pinned with taskset), nothing else of the bench running: every gap between two clock reads is time the
 *   thread was not running (the hypervisor or the guest kernel ran something else). The tail of any process on the
 *   host, direct included, sits on top of these gaps.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** A request body by request index (every request carries its own user turn). */
export type Body = (i: number) => string;

export interface FixedSamples {
  /** From the intended send time to the last byte, ms. */
  latencies: number[];
  /** From the intended send time to the first body byte, ms. */
  firstBytes: number[];
  /** How late the generator dispatched each request after its intended time, ms. */
  lags: number[];
  /** Failed requests by HTTP status ('conn' for a connection error). */
  byStatus: Map<string, number>;
  requests: number;
  seconds: number;
}

export interface FixedResult {
  p50: number;
  p99: number;
  p999: number;
  errors: number;
  byStatus: Map<string, number>;
  achievedRps: number;
  /** p99 of how late the generator dispatched a request after its intended time (its own saturation). */
  lagP99: number;
  firstByteP50: number;
  firstByteP99: number;
  /** The p99 of each round, when the result pools several rounds. */
  roundP99s: number[];
  /** The first-byte p99 of each round, when the result pools several rounds. */
  roundFirstByteP99s: number[];
}

export function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function fixedRate(url: string, headers: Record<string, string>, body: Body, rate: number, seconds: number, firstIndex = 0): Promise<FixedSamples> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 256, keepAliveTimeout: 60_000 });
  const total = Math.max(1, Math.round(rate * seconds));
  const s: FixedSamples = { latencies: [], firstBytes: [], lags: [], byStatus: new Map(), requests: total, seconds: 0 };
  const inflight: Promise<void>[] = [];
  let sent = 0;
  const fail = (k: string): void => void s.byStatus.set(k, (s.byStatus.get(k) ?? 0) + 1);
  const t0 = performance.now() + 10;
  const one = async (intended: number, i: number): Promise<void> => {
    s.lags.push(performance.now() - intended);
    let first = 0;
    try {
      const res = await pool.request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body(i) });
      for await (const chunk of res.body) if (first === 0 && (chunk as Buffer).length > 0) first = performance.now();
      if (res.statusCode !== 200) fail(String(res.statusCode));
    } catch {
      fail('conn');
    }
    const end = performance.now();
    s.latencies.push(end - intended);
    s.firstBytes.push((first || end) - intended);
  };
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      while (sent < total && t0 + (sent * 1000) / rate <= now) {
        inflight.push(one(t0 + (sent * 1000) / rate, firstIndex + sent));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, 10);
  });
  await Promise.all(inflight);
  s.seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return s;
}

/** The p99 of each round of one kind of sample, when there are several rounds. */
function roundP99s(rounds: readonly FixedSamples[], k: 'latencies' | 'firstBytes'): number[] {
  return rounds.length > 1 ? rounds.map((r) => pct([...r[k]].sort((a, b) => a - b), 99)) : [];
}

/** One distribution from one or more rounds of the same target. */
export function summarize(rounds: readonly FixedSamples[]): FixedResult {
  const all = (k: 'latencies' | 'firstBytes' | 'lags'): number[] => rounds.flatMap((r) => r[k]).sort((a, b) => a - b);
  const latencies = all('latencies');
  const firstBytes = all('firstBytes');
  const byStatus = new Map<string, number>();
  for (const r of rounds) for (const [k, v] of r.byStatus) byStatus.set(k, (byStatus.get(k) ?? 0) + v);
  return {
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    p999: pct(latencies, 99.9),
    errors: [...byStatus.values()].reduce((a, b) => a + b, 0),
    byStatus,
    achievedRps: rounds.reduce((a, r) => a + r.requests, 0) / Math.max(1e-9, rounds.reduce((a, r) => a + r.seconds, 0)),
    lagP99: pct(all('lags'), 99),
    firstByteP50: pct(firstBytes, 50),
    firstByteP99: pct(firstBytes, 99),
    roundP99s: roundP99s(rounds, 'latencies'),
    roundFirstByteP99s: roundP99s(rounds, 'firstBytes'),
  };
}

export interface HostStalls {
  seconds: number;
  /** Per CPU: gaps over 1, 3 and 8 ms per second, the longest gap (ms) and the share of time lost. */
  cpus: { over1PerS: number; over3PerS: number; over8PerS: number; maxMs: number; lostPct: number }[];
}

/** The busy thread: reads the clock until `seconds` have passed and prints its gaps as JSON. */
const SPIN = `
const end = performance.now() + Number(process.argv[1]) * 1000;
let last = performance.now(), o1 = 0, o3 = 0, o8 = 0, max = 0, lost = 0;
for (;;) {
  const t = performance.now(), g = t - last;
  if (g > 0.05) { lost += g; if (g > 1) o1++; if (g > 3) o3++; if (g > 8) o8++; if (g > max) max = g; }
  last = t;
  if (t > end) break;
}
process.stdout.write(JSON.stringify({ o1, o3, o8, max, lost }));
`;

/**
 * Null when the reading cannot be taken on every CPU (taskset missing or refused, a spinner that printed nothing):
 * it runs after the whole table too, and a failed reading must not lose a finished run.
 */
export async function hostStalls(seconds: number): Promise<HostStalls | null> {
  const one = (cpu: number): Promise<HostStalls['cpus'][number] | null> =>
    new Promise((resolve) => {
      const child = spawn('taskset', ['-c', String(cpu), process.execPath, '-e', SPIN, String(seconds)], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.once('error', () => resolve(null));
      child.once('close', (code) => {
        if (code !== 0) return resolve(null);
        try {
          const r = JSON.parse(out) as { o1: number; o3: number; o8: number; max: number; lost: number };
          resolve({ over1PerS: r.o1 / seconds, over3PerS: r.o3 / seconds, over8PerS: r.o8 / seconds, maxMs: r.max, lostPct: r.lost / (seconds * 10) });
        } catch {
          resolve(null);
        }
      });
    });
  // Every CPU of the machine (os.cpus), not the bench's own affinity: under BENCH_PIN the bench is pinned to CPU 0.
  const read = await Promise.all(cpus().map((_, cpu) => one(cpu)));
  const ok = read.filter((c): c is NonNullable<typeof c> => c !== null);
  return ok.length === read.length ? { seconds, cpus: ok } : null;
}

/** `CPU 0: 2.1 / 0.6 / 0.1 gaps a second over 1 / 3 / 8 ms, longest 12.3 ms, 1.9% lost; CPU 1: ...` */
export function hostStallsText(h: HostStalls): string {
  return h.cpus
    .map((c, i) => `CPU ${i}: ${c.over1PerS.toFixed(1)} / ${c.over3PerS.toFixed(1)} / ${c.over8PerS.toFixed(2)} gaps a second over 1 / 3 / 8 ms, longest ${c.maxMs.toFixed(1)} ms, ${c.lostPct.toFixed(1)}% of the time lost`)
    .join('; ');
}
