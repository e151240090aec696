/**
 * Exact 60 s sliding windows and concurrency leases for the memory store, mirroring lua/admit.lua: an entry
 * stamped `ts` counts while ts > now - 60 s; a lease counts while its expiry > now.
 */
import { WINDOW_MS } from '../shared.js';

interface WindowEntry {
  rid: string;
  ts: number;
  tokens: number;
}

/** Entries kept sorted by timestamp; expired ones are dropped from the front. */
export class SlidingWindow {
  #entries: WindowEntry[] = [];
  #head = 0;
  #byRid = new Map<string, WindowEntry>();
  #sum = 0;

  get count(): number {
    return this.#byRid.size;
  }

  get sum(): number {
    return this.#sum;
  }

  get newest(): number {
    return this.#entries.at(-1)?.ts ?? Number.NEGATIVE_INFINITY;
  }

  purge(now: number): void {
    const cutoff = now - WINDOW_MS;
    while (this.#head < this.#entries.length) {
      const e = this.#entries[this.#head];
      if (e === undefined || e.ts > cutoff) break;
      this.#head++;
      if (this.#byRid.get(e.rid) === e) {
        this.#byRid.delete(e.rid);
        this.#sum -= e.tokens;
      }
    }
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Records a request; re-recording the same request id replaces its earlier entry (as ZADD does). */
  add(rid: string, ts: number, tokens: number): void {
    const old = this.#byRid.get(rid);
    if (old !== undefined) {
      this.#sum -= old.tokens;
      this.#entries.splice(this.#entries.indexOf(old, this.#head), 1);
    }
    const e = { rid, ts, tokens };
    let i = this.#entries.length;
    while (i > this.#head && (this.#entries[i - 1]?.ts ?? 0) > ts) i--;
    this.#entries.splice(i, 0, e);
    this.#byRid.set(rid, e);
    this.#sum += tokens;
  }

  /** Replaces the token count of a still-counted entry (settlement corrects the admission estimate). */
  correct(rid: string, tokens: number): void {
    const e = this.#byRid.get(rid);
    if (e === undefined) return;
    this.#sum += tokens - e.tokens;
    e.tokens = tokens;
  }

  /** Time until the oldest entry leaves the window (for an RPM refusal). */
  rpmRetryMs(now: number): number {
    const oldest = this.#entries[this.#head];
    return oldest === undefined ? WINDOW_MS : Math.max(1, oldest.ts + WINDOW_MS - now);
  }

  /** Time until enough tokens leave the window for `tokens` more to fit under `limit`. */
  tpmRetryMs(now: number, tokens: number, limit: number): number {
    if (tokens > limit) return WINDOW_MS;
    let need = this.#sum + tokens - limit;
    for (let i = this.#head; i < this.#entries.length; i++) {
      const e = this.#entries[i];
      if (e === undefined || this.#byRid.get(e.rid) !== e) continue;
      need -= e.tokens;
      if (need <= 0) return Math.max(1, e.ts + WINDOW_MS - now);
    }
    return WINDOW_MS;
  }
}

export class LeaseSet {
  readonly #leases = new Map<string, number>();
  /** A lower bound of the earliest expiry: purging before it would find nothing. */
  #next = Number.POSITIVE_INFINITY;

  get size(): number {
    return this.#leases.size;
  }

  purge(now: number): void {
    if (now < this.#next) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [rid, expiry] of this.#leases) {
      if (expiry <= now) this.#leases.delete(rid);
      else next = Math.min(next, expiry);
    }
    this.#next = next;
  }

  earliestExpiry(): number | undefined {
    let min: number | undefined;
    for (const expiry of this.#leases.values()) if (min === undefined || expiry < min) min = expiry;
    return min;
  }

  latestExpiry(): number {
    let max = Number.NEGATIVE_INFINITY;
    for (const expiry of this.#leases.values()) if (expiry > max) max = expiry;
    return max;
  }

  take(rid: string, expiry: number): void {
    this.#leases.set(rid, expiry);
    this.#next = Math.min(this.#next, expiry);
  }

  release(rid: string): void {
    this.#leases.delete(rid);
  }
}
