/**
 * Generic small state for the memory store: JSON values with optional TTL, and fixed-window hit counters.
 * Values are kept as JSON text so a read returns a fresh copy with exactly what Redis would return.
 */
import { assertTtl } from '../shared.js';

interface KvEntry {
  json: string;
  expiresAt: number | null;
}

export class KvSpace {
  readonly #entries = new Map<string, KvEntry>();
  readonly #hits = new Map<string, { count: number; expiresAt: number }>();

  get<T>(key: string, now: number): T | null {
    const e = this.#entries.get(key);
    if (e === undefined) return null;
    if (e.expiresAt !== null && e.expiresAt <= now) {
      this.#entries.delete(key);
      return null;
    }
    return JSON.parse(e.json) as T;
  }

  set(key: string, value: unknown, ttlMs: number | undefined, now: number): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`kvSet(${key}): value is not JSON-serialisable`);
    if (ttlMs !== undefined) assertTtl('ttlMs', ttlMs);
    this.#entries.set(key, { json, expiresAt: ttlMs === undefined ? null : now + ttlMs });
  }

  del(key: string): void {
    this.#entries.delete(key);
  }

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

  /** Drops expired entries (called periodically so abandoned keys do not accumulate). */
  sweep(now: number): void {
    for (const [k, e] of this.#entries) if (e.expiresAt !== null && e.expiresAt <= now) this.#entries.delete(k);
    for (const [k, h] of this.#hits) if (h.expiresAt <= now) this.#hits.delete(k);
  }

  persistent(): [string, string][] {
    const out: [string, string][] = [];
    for (const [k, e] of this.#entries) if (e.expiresAt === null) out.push([k, e.json]);
    return out;
  }

  restore(entries: [string, string][]): void {
    for (const [k, json] of entries) this.#entries.set(k, { json, expiresAt: null });
  }
}
