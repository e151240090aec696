/**
 * One organization's settled history for the memory store: spend counters per group and the ledger
 * (newest-first view capped at LEDGER_CAP, like the Redis list; the per-request lookup is not capped).
 */
import type { LedgerEntry, SpendGroup, SpendRow } from '../contract.js';
import { LEDGER_CAP } from '../shared.js';

export interface Counter {
  cost: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export class OrgBook {
  /** group -> group value -> counter */
  readonly spend = new Map<SpendGroup, Map<string, Counter>>();
  /** Append order, oldest first; entries before #head are trimmed. */
  #entries: LedgerEntry[] = [];
  #head = 0;
  readonly byRequest = new Map<string, LedgerEntry>();

  add(group: SpendGroup, value: string, e: LedgerEntry): void {
    let byValue = this.spend.get(group);
    if (byValue === undefined) this.spend.set(group, (byValue = new Map()));
    const c = byValue.get(value) ?? { cost: 0, requests: 0, inputTokens: 0, outputTokens: 0 };
    c.cost += e.cost;
    c.requests += 1;
    c.inputTokens += e.inputTokens;
    c.outputTokens += e.outputTokens;
    byValue.set(value, c);
  }

  spent(group: SpendGroup, value: string): number {
    return this.spend.get(group)?.get(value)?.cost ?? 0;
  }

  rows(group: SpendGroup): SpendRow[] {
    return [...(this.spend.get(group) ?? new Map<string, Counter>())].map(([g, c]) => ({ group: g, ...c }));
  }

  append(e: LedgerEntry): void {
    this.byRequest.set(e.requestId, e);
    this.#entries.push(e);
    if (this.#entries.length - this.#head > LEDGER_CAP) this.#head++;
    if (this.#head > 4096 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Newest first, like LRANGE on the Redis list. */
  *newestFirst(): Generator<LedgerEntry> {
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      const e = this.#entries[i];
      if (e !== undefined) yield e;
    }
  }

  restoreCounter(group: SpendGroup, value: string, c: Counter): void {
    let byValue = this.spend.get(group);
    if (byValue === undefined) this.spend.set(group, (byValue = new Map()));
    byValue.set(value, { ...c });
  }
}
