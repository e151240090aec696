/**
 * Event-loop stall probe for the gateway under test, preloaded with
 * `BENCH_GATEWAY_NODE_OPTIONS="--import <root>/dist/bench/load/loop-probe.js" PROBE_DIR=/some/dir`.
 *
 * Every ~1 ms a timer reads the main thread's /proc schedstat (ns on a CPU, ns waiting on a run queue). A gap
 * between two ticks longer than 3 ms is a stall; it is split into time the thread ran (the gateway's own work,
 * or a GC pause) and time it waited for a CPU (other processes: on a shared 2-core machine most of the tail).
 * GC pauses come from a PerformanceObserver. One JSON line per second is appended to
 * PROBE_DIR/loop-probe-<pid>.jsonl: { t, stalls: [start ms, gap ms, on-CPU ms, run-queue ms, overlaps GC 0|1],
 * gc: [start ms, pause ms, kind] } (kind 1 = scavenge, 4 = incremental marking, 8 = weak callbacks, 2 = mark-compact).
 * Linux only; the reads cost ~2% of a core, so compare runs that all carry the probe.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';

const dir = process.env.PROBE_DIR ?? '.';
const file = `${dir}/loop-probe-${process.pid}.jsonl`;
const schedstat = `/proc/self/task/${process.pid}/schedstat`;

/** [ms on a CPU, ms waiting on a run queue] of the main thread so far. */
function sched(): [number, number] {
  const [run = '0', wait = '0'] = readFileSync(schedstat, 'utf8').split(' ');
  return [Number(run) / 1e6, Number(wait) / 1e6];
}

type Stall = [start: number, gap: number, onCpu: number, runQueue: number, gc?: 0 | 1];
type Gc = [start: number, ms: number, kind: number];

let gcs: Gc[] = [];
let stalls: Stall[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } | null }).detail?.kind ?? -1;
    gcs.push([e.startTime, e.duration, kind]);
  }
}).observe({ entryTypes: ['gc'] });

let [lastRun, lastWait] = sched();
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const [run, wait] = sched();
  const gap = now - last;
  if (gap > 3) stalls.push([last, gap, run - lastRun, wait - lastWait]);
  last = now;
  lastRun = run;
  lastWait = wait;
}, 1).unref();

const r2 = (x: number | undefined): number => Math.round((x ?? 0) * 100) / 100;
setInterval(() => {
  for (const s of stalls) s[4] = gcs.some(([t, ms]) => t < s[0] + s[1] && t + ms > s[0]) ? 1 : 0;
  appendFileSync(
    file,
    JSON.stringify({ t: Math.round(performance.now()), stalls: stalls.map((s) => s.map(r2)), gc: gcs.map(([t, ms, k]) => [Math.round(t), r2(ms), k]) }) + '\n',
  );
  stalls = [];
  gcs = [];
}, 1000).unref();
