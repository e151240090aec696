/**
 * One organization's holds for the embedded store, mirroring lua/hold.lua and lua/lib/holds.lua: each hold
 * has an expiry and the budget scopes it counts against. Holds are hot state: they live only in memory,
 * bounded by the requests in flight (every hold ends by settlement, release or expiry); the balance they are
 * checked against is durable and read from the database by the caller.
 */
import type { BudgetScope, HoldResult } from '../contract.js';
import type { NanoUsd } from '../../billing/money.js';

interface Hold {
  amount: NanoUsd;
  expiresAt: number;
  scopes: string[];
}

export function scopeKey(source: string, id: string): string {
  return `${source}:${id}`;
}

export class OrgHolds {
  #held: NanoUsd = 0;
  readonly #holds = new Map<string, Hold>();
  /** Held amount per budget scope (`key:<id>`, `team:<id>`). */
  readonly #scopeHeld = new Map<string, NanoUsd>();
  #nextExpiry = Number.POSITIVE_INFINITY;

  get held(): NanoUsd {
    return this.#held;
  }

  get holdCount(): number {
    return this.#holds.size;
  }

  hasHold(rid: string): boolean {
    return this.#holds.has(rid);
  }

  /** Drops holds whose expiry is at or before `now` (a dead node cannot pin credit forever). */
  purge(now: number): void {
    if (now < this.#nextExpiry) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [rid, h] of this.#holds) {
      if (h.expiresAt <= now) this.release(rid);
      else next = Math.min(next, h.expiresAt);
    }
    this.#nextExpiry = next;
  }

  /**
   * Places a hold against `balance`. `spentOf` gives the settled spend of a budget scope. `settled`
   * short-circuits a hold for a request that was already charged (idempotency across hold/settle).
   */
  hold(
    balance: NanoUsd,
    rid: string,
    amount: NanoUsd,
    now: number,
    ttlMs: number,
    budgets: BudgetScope[],
    spentOf: (b: BudgetScope) => NanoUsd,
    settled: boolean,
  ): HoldResult {
    this.purge(now);
    const available = balance - this.#held;
    if (settled || this.#holds.has(rid)) return { ok: true, available };
    if (amount > available) return { ok: false, source: 'plan', available };
    for (const b of budgets) {
      const heldFor = this.#scopeHeld.get(scopeKey(b.source, b.id)) ?? 0;
      if (spentOf(b) + heldFor + amount > b.limit) return { ok: false, source: 'budget', available };
    }
    const scopes = budgets.map((b) => scopeKey(b.source, b.id));
    const expiresAt = now + ttlMs;
    this.#holds.set(rid, { amount, expiresAt, scopes });
    this.#nextExpiry = Math.min(this.#nextExpiry, expiresAt);
    this.#held += amount;
    for (const s of scopes) this.#scopeHeld.set(s, (this.#scopeHeld.get(s) ?? 0) + amount);
    return { ok: true, available: available - amount };
  }

  release(rid: string): void {
    const h = this.#holds.get(rid);
    if (h === undefined) return;
    this.#holds.delete(rid);
    this.#held -= h.amount;
    for (const s of h.scopes) {
      const left = (this.#scopeHeld.get(s) ?? 0) - h.amount;
      if (left > 0) this.#scopeHeld.set(s, left);
      else this.#scopeHeld.delete(s);
    }
  }
}
