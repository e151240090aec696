/**
 * Fixed-window hit counters for the embedded store (login and registration throttles). Hot state: kept in
 * memory only and swept once their window has passed, so the map holds at most the keys hit in the current
 * window.
 */
import { assertTtl } from '../shared.js';

export class HitCounters {
  readonly #hits = new Map<string, { count: number; expiresAt: number }>();

  /** Fixed windows aligned on multiples of windowMs (same bucket arithmetic as the Redis store). */
  hit(key: string, windowMs: number, now: number): number {
    assertTtl('windowMs', windowMs);
    const bucket = `${key}\u0000${Math.floor(now / windowMs)}`;
    const h = this.#hits.get(bucket);
    if (h === undefined || h.expiresAt <= now) {
      this.#hits.set(bucket, { count: 1, expiresAt: (Math.floor(now / windowMs) + 1) * windowMs });
      return 1;
    }
    h.count++;
    return h.count;
  }

  get size(): number {
    return this.#hits.size;
  }

  sweep(now: number): void {
    for (const [k, h] of this.#hits) if (h.expiresAt <= now) this.#hits.delete(k);
  }
}
