import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../../src/store/shared.js';

const reference = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe('utcDay', () => {
  it('names the UTC day of any time, in any order of calls (the cached day is replaced when a call leaves it)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 1, maxLength: 50 }), (times) => {
        for (const t of times) expect(utcDay(t)).toBe(reference(t));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('turns over exactly at midnight UTC', () => {
    const midnight = Date.UTC(2026, 11, 1);
    expect(utcDay(midnight - 1)).toBe('2026-11-30');
    expect(utcDay(midnight)).toBe('2026-12-01');
    expect(utcDay(midnight - 1)).toBe('2026-11-30');
    expect(utcDay(midnight + 86_399_999)).toBe('2026-12-01');
    expect(utcDay(midnight + 86_400_000)).toBe('2026-12-02');
  });
});
