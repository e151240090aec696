import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BoundCounter, BoundHistogram } from '../../../src/obs/bound-metrics.js';

const BUCKETS = [0.5, 1, 2, 5, 10, 25, 50, 100, 250];
/** Label values with the characters the text format escapes, and plain ones. */
const labelValue = fc.oneof(fc.constantFrom('', '/v1/chat/completions', 'gpt-4o-mini', 'a"b\\c', 'line\nbreak'), fc.string({ maxLength: 8 }));
const observations = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.oneof(fc.double({ min: 0, max: 20_000, noNaN: true }), fc.constantFrom(0.5, 1, 250, 251))), { maxLength: 60 });

/** prom-client's text for the one metric in `registry`. */
async function promText(registry: Registry): Promise<string> {
  return (await registry.metrics()).trimEnd();
}

describe('bound metrics render what prom-client renders for the same updates', () => {
  it('counters: same series, label order, escaping and sums', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(labelValue, { minLength: 4, maxLength: 4 }), observations, async (values, obs) => {
        const registry = new Registry();
        const prom = new Counter({ name: 'x_total', help: 'Help with a \\ and\na newline.', labelNames: ['a', 'b'] as const, registers: [registry] });
        const ours = new BoundCounter('x_total', 'Help with a \\ and\na newline.', ['a', 'b']);
        for (const [series, by] of obs) {
          const a = values[series]!;
          const b = values[(series + 1) % 4]!;
          const amount = Math.round(by);
          prom.labels(a, b).inc(amount);
          ours.child(a, b).inc(amount);
        }
        expect(ours.render()).toBe(await promText(registry));
      }),
      { numRuns: 200 },
    );
  });

  it('histograms: cumulative buckets with le first, +Inf, sum and count, with and without labels', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(labelValue, { minLength: 4, maxLength: 4 }), observations, async (values, obs) => {
        const registry = new Registry();
        const prom = new Histogram({ name: 'y_ms', help: 'Y.', labelNames: ['route'] as const, buckets: BUCKETS, registers: [registry] });
        const ours = new BoundHistogram('y_ms', 'Y.', ['route'], BUCKETS);
        const bareRegistry = new Registry();
        const promBare = new Histogram({ name: 'z_ms', help: 'Z.', buckets: BUCKETS, registers: [bareRegistry] });
        const bare = new BoundHistogram('z_ms', 'Z.', [], BUCKETS);
        const bareCell = bare.child();
        for (const [series, v] of obs) {
          prom.labels(values[series]!).observe(v);
          ours.child(values[series]!).observe(v);
          promBare.observe(v);
          bareCell.observe(v);
        }
        expect(ours.render()).toBe(await promText(registry));
        expect(bare.render()).toBe(await promText(bareRegistry));
      }),
      { numRuns: 200 },
    );
  });

  it('a series is bound once: the same cell for the same label values; a wrong label count is refused', () => {
    const c = new BoundCounter('c_total', 'C.', ['a', 'b']);
    expect(c.child('x', 'y')).toBe(c.child('x', 'y'));
    expect(c.child('x\u0000', 'y')).not.toBe(c.child('x', '\u0000y'));
    expect(() => c.child('x')).toThrow(/expected 2 label values, got 1/);
    expect(() => new BoundHistogram('h', 'H.', [], [1, 1])).toThrow(/buckets must increase/);
  });
});
