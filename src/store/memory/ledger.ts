/**
 * One organization's settled history for the memory store: spend counters per group and the ledger with
 * its per-request lookup (which is also the settle idempotency marker), both holding the newest `cap`
 * entries (LEDGER_CAP by default) like the Redis list and hash.
 *
 * Entries are kept in chunks; a full chunk never changes again, so its msgpack encoding is cached and a
 * snapshot copies bytes instead of re-encoding up to 100k entries (about 200 ms of event loop per write).
 */
import type { Packr } from 'msgpackr';
import type { LedgerEntry, SpendGroup, SpendRow } from '../contract.js';

export interface Counter {
  cost: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

const CHUNK = 1_024;

interface Chunk {
  entries: LedgerEntry[];
  packed: Uint8Array | null;
}

export class OrgBook {
  /** group -> group value -> counter */
  readonly spend = new Map<SpendGroup, Map<string, Counter>>();
  readonly byRequest = new Map<string, LedgerEntry>();
  /** Oldest chunk first; the last one is the open chunk. */
  #chunks: Chunk[] = [];
  /** Entries of the first chunk already trimmed away (the list keeps exactly `cap`). */
  #trimmed = 0;
  readonly #cap: number;

  constructor(cap: number) {
    this.#cap = cap;
  }

  add(group: SpendGroup, value: string, e: LedgerEntry): void {
    const c = this.#counter(group, value);
    c.cost += e.cost;
    c.requests += 1;
    c.inputTokens += e.inputTokens;
    c.outputTokens += e.outputTokens;
  }

  restoreCounter(group: SpendGroup, value: string, c: Counter): void {
    Object.assign(this.#counter(group, value), c);
  }

  spent(group: SpendGroup, value: string): number {
    return this.spend.get(group)?.get(value)?.cost ?? 0;
  }

  rows(group: SpendGroup): SpendRow[] {
    return [...(this.spend.get(group) ?? new Map<string, Counter>())].map(([g, c]) => ({ group: g, ...c }));
  }

  append(e: LedgerEntry): void {
    let open = this.#chunks.at(-1);
    if (open === undefined || open.entries.length >= CHUNK) this.#chunks.push((open = { entries: [], packed: null }));
    open.entries.push(e);
    this.byRequest.set(e.requestId, e);
  }

  /**
   * Drops the oldest entries beyond the cap. Called once per settle() call, like the LTRIM at the end of
   * settle.lua, so a duplicate later in the same batch is still recognised.
   */
  trim(): void {
    while (this.byRequest.size > this.#cap) this.#trimOne();
  }

  /** Newest first, like LRANGE on the Redis list. */
  *newestFirst(): Generator<LedgerEntry> {
    for (let c = this.#chunks.length - 1; c >= 0; c--) {
      const entries = this.#chunks[c]?.entries ?? [];
      const stop = c === 0 ? this.#trimmed : 0;
      for (let i = entries.length - 1; i >= stop; i--) {
        const e = entries[i];
        if (e !== undefined) yield e;
      }
    }
  }

  /** Encoded chunks, oldest first (full chunks from cache); `trimmed` leading entries are not listed. */
  packChunks(packr: Packr): { trimmed: number; chunks: Uint8Array[] } {
    const chunks = this.#chunks.map((c) => {
      if (c.packed !== null) return c.packed;
      const bytes = packr.pack(c.entries);
      if (c.entries.length >= CHUNK) c.packed = bytes;
      return bytes;
    });
    return { trimmed: this.#trimmed, chunks };
  }

  #trimOne(): void {
    const first = this.#chunks[0];
    const e = first?.entries[this.#trimmed];
    if (first === undefined || e === undefined) return;
    this.byRequest.delete(e.requestId);
    if (++this.#trimmed >= first.entries.length) {
      this.#chunks.shift();
      this.#trimmed = 0;
    }
  }

  #counter(group: SpendGroup, value: string): Counter {
    let byValue = this.spend.get(group);
    if (byValue === undefined) this.spend.set(group, (byValue = new Map()));
    let c = byValue.get(value);
    if (c === undefined) byValue.set(value, (c = { cost: 0, requests: 0, inputTokens: 0, outputTokens: 0 }));
    return c;
  }
}
