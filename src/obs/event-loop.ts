/**
 * Operator-visible event-loop health: how late the loop ran its timers (node's monitorEventLoopDelay) over the
 * last completed window, and the garbage collector's pauses by kind. Every request the gateway serves waits
 * behind whatever holds the loop, so a loop-delay p99 of a few milliseconds is a few milliseconds added to the
 * p99 of every route; the GC pause counters tell whether the collector is the cause.
 *
 * Exposed on /metrics as gauges (read at scrape time, independent of how often or by how many scrapers):
 *   svc_event_loop_delay_p50_ms / _p99_ms / _max_ms   over the last completed window (WINDOW_MS)
 *   svc_gc_pause_ms_total{kind} / svc_gc_pauses_total{kind}   since start (minor = scavenge, major = mark-compact)
 */
import { constants, monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram, type PerformanceEntry } from 'node:perf_hooks';
import { Counter } from 'prom-client';
import type { Metrics } from './metrics.js';

/** Length of one loop-delay window: the gauges show the last completed one. */
export const WINDOW_MS = 10_000;
/**
 * Sampling timer of the loop-delay histogram (ms): a stall is seen when it overlaps one of its ticks. Each tick wakes
 * the process (two epoll_wait calls): at 5 ms that was ~1.7% of a core with no traffic, at 10 ms (prom-client's default)
 * ~1.1%. Hence the histogram sleeps through windows without requests (`watchEventLoop`).
 */
const RESOLUTION_MS = 10;

export interface LoopDelayWindow {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** Percentiles of a histogram in ms (0 when it saw no sample). */
export function windowOf(h: Pick<IntervalHistogram, 'count' | 'percentile' | 'max'>): LoopDelayWindow {
  if (h.count === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0 };
  return { p50Ms: h.percentile(50) / 1e6, p99Ms: h.percentile(99) / 1e6, maxMs: h.max / 1e6 };
}

export interface LoopWatch {
  /** The last completed window. */
  last(): LoopDelayWindow;
  /** A request arrived: the histogram samples again if it slept (one boolean test otherwise). */
  wake(): void;
  /** True while the histogram's timer is off (a window went by without requests). */
  asleep(): boolean;
  stop(): void;
}

/**
 * Starts the loop-delay histogram and the GC observer and registers their metrics on `metrics`. Returns the watch
 * (its stop() is the gateway's close()). The timers are unref'd: they never keep a process alive.
 *
 * A window in which no request arrived (`wake` not called) turns the histogram's timer off until the next request, so an
 * idle gateway is not woken 100 times a second to measure a delay nobody waits behind; a quiet window reads as zeros.
 */
export function watchEventLoop(metrics: Metrics, opts: { windowMs?: number } = {}): LoopWatch {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  let last: LoopDelayWindow = { p50Ms: 0, p99Ms: 0, maxMs: 0 };
  let woken = true;
  let asleep = false;
  const rotate = setInterval(() => {
    last = windowOf(h);
    h.reset();
    if (!woken && !asleep) {
      h.disable();
      asleep = true;
    }
    woken = false;
  }, opts.windowMs ?? WINDOW_MS).unref();
  metrics.gauge('svc_event_loop_delay_p50_ms', 'Event-loop delay p50 (ms) over the last completed 10 s window.', () => last.p50Ms);
  metrics.gauge('svc_event_loop_delay_p99_ms', 'Event-loop delay p99 (ms) over the last completed 10 s window.', () => last.p99Ms);
  metrics.gauge('svc_event_loop_delay_max_ms', 'Longest event-loop delay (ms) in the last completed 10 s window.', () => last.maxMs);
  const pauseMs = new Counter({
    name: 'svc_gc_pause_ms_total',
    help: 'Time the garbage collector held the main thread (ms), by kind (minor = scavenge, major = mark-compact).',
    labelNames: ['kind'] as const,
    registers: [metrics.registry],
  });
  const pauses = new Counter({
    name: 'svc_gc_pauses_total',
    help: 'Garbage-collector pauses of the main thread, by kind.',
    labelNames: ['kind'] as const,
    registers: [metrics.registry],
  });
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const detail = (e as PerformanceEntry & { detail?: { kind?: number } | null }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
      pauseMs.inc({ kind }, e.duration);
      pauses.inc({ kind });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return {
    last: () => last,
    wake: () => {
      woken = true;
      if (asleep) {
        asleep = false;
        h.enable();
      }
    },
    asleep: () => asleep,
    stop: () => {
      clearInterval(rotate);
      h.disable();
      obs.disconnect();
    },
  };
}
