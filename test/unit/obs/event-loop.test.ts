import { describe, expect, it } from 'vitest';
import { watchEventLoop, windowOf } from '../../../src/obs/event-loop.js';
import { Metrics } from '../../../src/obs/metrics.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function gaugeValue(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`${name} missing from:\n${text}`);
  return Number(m[1]);
}

describe('event-loop metrics', () => {
  it('a loop held for 40 ms shows in the last window as a max delay of at least 30 ms; the next quiet window forgets it', async () => {
    const m = new Metrics();
    const loop = watchEventLoop(m, { windowMs: 200 });
    try {
      await sleep(20);
      const until = performance.now() + 40;
      while (performance.now() < until) {
        // hold the event loop
      }
      // The window holding the stall completes, then is read.
      for (let i = 0; i < 30 && loop.last().maxMs < 30; i++) await sleep(20);
      const text = await m.render();
      expect(gaugeValue(text, 'svc_event_loop_delay_max_ms')).toBeGreaterThanOrEqual(30);
      expect(gaugeValue(text, 'svc_event_loop_delay_p99_ms')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE svc_event_loop_delay_p50_ms gauge');
    } finally {
      loop.stop();
    }
  });

  it('a window without requests turns the histogram off; the next request turns it on and its stalls are seen again', async () => {
    const m = new Metrics();
    const loop = watchEventLoop(m, { windowMs: 50 });
    try {
      for (let i = 0; i < 40 && !loop.asleep(); i++) await sleep(20);
      expect(loop.asleep()).toBe(true);
      // Asleep: a stall is not sampled, and the quiet windows read as zeros.
      const hold = (ms: number): void => {
        const until = performance.now() + ms;
        while (performance.now() < until) {
          // hold the event loop
        }
      };
      hold(40);
      await sleep(120);
      expect(loop.last()).toEqual({ p50Ms: 0, p99Ms: 0, maxMs: 0 });
      loop.wake();
      expect(loop.asleep()).toBe(false);
      await sleep(15);
      hold(40);
      let seen = 0;
      for (let i = 0; i < 30 && seen < 30; i++) {
        loop.wake(); // traffic goes on: the histogram stays on
        await sleep(10);
        seen = Math.max(seen, loop.last().maxMs);
      }
      expect(seen).toBeGreaterThanOrEqual(30);
      expect(loop.asleep()).toBe(false);
    } finally {
      loop.stop();
    }
  });

  it('counts garbage-collector pauses by kind', async () => {
    const m = new Metrics();
    const loop = watchEventLoop(m);
    try {
      let keep: object[] = [];
      for (let round = 0; round < 50 && !/^svc_gc_pauses_total\{kind="minor"\} [1-9]/m.test(await m.render()); round++) {
        for (let i = 0; i < 100_000; i++) keep.push({ i, s: `x${i}` });
        keep = [];
        await sleep(5); // the observer reports asynchronously
      }
      const text = await m.render();
      expect(text).toMatch(/^svc_gc_pauses_total\{kind="minor"\} [1-9]\d*$/m);
      expect(text).toMatch(/^svc_gc_pause_ms_total\{kind="minor"\} \S+$/m);
    } finally {
      loop.stop();
    }
  });

  it('windowOf reads an empty histogram as zeros and converts ns to ms', () => {
    expect(windowOf({ count: 0, percentile: () => 5e6, max: 9e6 })).toEqual({ p50Ms: 0, p99Ms: 0, maxMs: 0 });
    expect(windowOf({ count: 3, percentile: (p) => (p === 50 ? 1e6 : 4e6), max: 9e6 })).toEqual({ p50Ms: 1, p99Ms: 4, maxMs: 9 });
  });
});
