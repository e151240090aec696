import type { Logger } from '../obs/logger.js';
import { StoreUnavailableError, type SettlementEntry, type Store } from '../store/contract.js';
import type { SettlementJournal } from './settlement-journal.js';

/**
 * Whether two entries of one request settle identically: every field but the latency, which the final entry
 * measures a little later than the provisional record (a replay after a crash then records the earlier one).
 */
export function sameBilling(a: SettlementEntry, b: SettlementEntry): boolean {
  return (
    a.requestId === b.requestId &&
    a.orgId === b.orgId &&
    a.keyId === b.keyId &&
    a.teamId === b.teamId &&
    a.user === b.user &&
    a.model === b.model &&
    a.requestedModel === b.requestedModel &&
    a.cost === b.cost &&
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    a.cacheReadTokens === b.cacheReadTokens &&
    a.cacheWriteTokens === b.cacheWriteTokens &&
    a.tokens === b.tokens &&
    a.hadHold === b.hadHold &&
    a.status === b.status &&
    a.endpoint === b.endpoint &&
    a.at === b.at &&
    a.tags.length === b.tags.length &&
    a.tags.every((t, i) => t === b.tags[i]) &&
    a.scopes.length === b.scopes.length &&
    a.scopes.every((s, i) => s.source === b.scopes[i]?.source && s.id === b.scopes[i]?.id)
  );
}

/** The largest store call while the queue is behind, in batchSize units (see SettlementQueue#batchLimit). */
export const BACKLOG_BATCHES = 8;

/**
 * Settlement is queued and flushed in batches (size- and time-bound). A failed flush keeps its entries and
 * retries with backoff: the Store applies each request id once, so a retry can never double-charge.
 * close() flushes everything still queued (graceful shutdown).
 *
 * With a journal (settlement-journal.ts) every entry is written to local disk synchronously when it is
 * queued (and provisionally, by `journalThen()`, before a response's last byte), so a crash loses no entry: the
 * next start replays what the store had not applied.
 */
export class SettlementQueue {
  #queue: SettlementEntry[] = [];
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #backoffMs = 0;
  #closed = false;
  /** Called with every batch the store accepted (budget and low-balance notices hook in here). */
  onFlushed: ((batch: readonly SettlementEntry[]) => Promise<void> | void) | null = null;

  constructor(
    private readonly store: Store,
    private readonly opts: { batchSize: number; flushMs: number; journal?: SettlementJournal | null },
    private readonly log: Logger,
    private readonly onFailure: () => void = () => {},
  ) {
    if (opts.journal) opts.journal.onTailError = (e) => log.error('bookkeeping after an answer failed', { error: (e as Error)?.stack ?? String(e) });
  }

  get pending(): number {
    return this.#queue.length;
  }

  /** Whether entries reach a local durable journal before they are queued. */
  get journaled(): boolean {
    return (this.opts.journal ?? null) !== null;
  }

  /**
   * Records an entry durably without queueing it: called as a response ends, with the cost already known, and
   * `then` sends the response's last bytes once the record is in the kernel (with the error if the write failed).
   * Group commit: that is at the end of this event-loop turn, every record of the turn in one write(2); at once
   * when there is no journal. enqueue() later records the final entry (same request id; the last wins).
   */
  journalThen(entry: SettlementEntry, then: (err: Error | null) => void): void {
    const journal = this.opts.journal;
    if (journal) journal.appendThen(entry, then);
    else then(null);
  }

  /**
   * Runs `fn` after the journal's pending group commit (see SettlementJournal.afterCommit), or at once when none is
   * pending (or there is no journal). An error thrown by `fn` once put off is logged: the answers are already out.
   */
  afterAnswer(fn: () => void): void {
    const journal = this.opts.journal;
    if (journal) journal.afterCommit(fn);
    else fn();
  }

  /**
   * Queues the final entry of a request. `journaled` is what journal() recorded for it as the response ended (the
   * caller keeps it with the request): the final entry is journaled again only when it bills differently
   * (sameBilling). Most requests end as they were journaled, and a second JSON line and write(2) per request was
   * ~5% of the main thread's CPU.
   */
  enqueue(entry: SettlementEntry, journaled: SettlementEntry | null = null): void {
    const journal = this.opts.journal;
    if (journal && (journaled === null || !sameBilling(journaled, entry))) journal.append(entry);
    this.#queue.push(entry);
    // After close() (a request that outlived the shutdown grace) there is no timer left: flush at once.
    if (this.#closed || this.#queue.length >= this.opts.batchSize) void this.#start(false);
    else this.#arm(this.opts.flushMs);
  }

  #arm(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#start(false);
    }, ms);
    this.#timer.unref();
  }

  /** Flushes until the queue is empty or a flush fails. */
  flush(): Promise<void> {
    return this.#start(true);
  }

  /**
   * Runs a drain, or joins the one running. `all`: until the queue is empty (flush(), close()); otherwise the
   * drain stops once less than a batch is left, and the rest waits for the flush timer (see #drain).
   */
  #start(all: boolean): Promise<void> {
    if (this.#flushing === null) {
      this.#flushing = this.#drain(all).finally(() => {
        this.#flushing = null;
      });
      return this.#flushing;
    }
    if (!all) return this.#flushing;
    // A partial drain is running: once it ends, drain the rest unless it failed (it armed its retry).
    return this.#flushing.then(() => (this.#queue.length > 0 && this.#backoffMs === 0 ? this.flush() : undefined));
  }

  /**
   * Applies the queue batch by batch. A drain started by the timer or by a full batch stops once less than a
   * batch is left and leaves that to the next timer: entries queued while a batch was being applied (a commit
   * takes milliseconds) wait for the flush interval instead of going to the store at once as a small batch. A
   * store call's cost is mostly per call (an LMDB commit, a script call), and draining continuously made the
   * embedded store commit every ~25 requests under load instead of once per interval.
   */
  async #drain(all: boolean): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#batchLimit());
      try {
        await this.store.settle(batch);
        this.opts.journal?.markApplied(batch.map((e) => e.requestId));
        this.#backoffMs = 0;
        this.#notify(batch);
        if (!all && !this.#closed && this.#queue.length < this.opts.batchSize) {
          if (this.#queue.length > 0) this.#arm(this.opts.flushMs);
          return;
        }
      } catch (e) {
        if (!(e instanceof StoreUnavailableError)) {
          await this.#isolate(batch, e);
          continue;
        }
        this.#queue.unshift(...batch);
        this.onFailure();
        this.#backoffMs = Math.min(Math.max(this.#backoffMs * 2, 100), 5_000);
        this.log.warn('settlement flush failed; will retry', {
          pending: this.#queue.length,
          retry_ms: this.#backoffMs,
          error: (e as Error).message,
        });
        this.#arm(this.#backoffMs);
        return;
      }
    }
  }

  /**
   * Entries per store call: batchSize, and up to BACKLOG_BATCHES times that while the queue is more than two
   * batches behind. A store's settlement rate grows with its batch (a commit or a script call per batch), so a
   * backlog drains instead of growing without bound while requests keep arriving faster than fixed-size
   * batches are applied.
   */
  #batchLimit(): number {
    const size = this.opts.batchSize;
    const pending = this.#queue.length;
    return pending > 2 * size ? Math.min(pending, BACKLOG_BATCHES * size) : size;
  }

  #notify(batch: readonly SettlementEntry[]): void {
    if (!this.onFlushed) return;
    Promise.resolve(this.onFlushed(batch)).catch((e: unknown) =>
      this.log.warn('post-settlement hook failed', { error: (e as Error).message }),
    );
  }

  /**
   * A batch the store rejected for a reason other than unavailability: apply its entries one by one so a
   * single bad entry cannot block the rest; entries that still fail are parked (kept in memory, logged with
   * every field, counted) for an operator instead of being retried forever.
   */
  async #isolate(batch: SettlementEntry[], first: unknown): Promise<void> {
    this.log.error('settlement batch rejected; applying entries one by one', { error: (first as Error).message, size: batch.length });
    for (const entry of batch) {
      try {
        await this.store.settle([entry]);
        this.opts.journal?.markApplied([entry.requestId]);
      } catch (e) {
        if (e instanceof StoreUnavailableError) {
          this.#queue.unshift(entry);
          continue;
        }
        this.parked.push(entry);
        this.onFailure();
        this.log.error('settlement entry parked', { request_id: entry.requestId, entry: JSON.stringify(entry), error: (e as Error).message });
      }
    }
  }

  /** Entries the store refused outright (see #isolate). */
  readonly parked: SettlementEntry[] = [];

  /** Flushes all pending entries, retrying for up to `deadlineMs`. */
  async close(deadlineMs = 10_000): Promise<void> {
    // Requests that answered in this turn queue their final entries after the journal's group commit: now, not later.
    this.opts.journal?.commitTurn();
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const until = Date.now() + deadlineMs;
    while (this.#queue.length > 0 && Date.now() < until) {
      await this.flush();
      if (this.#queue.length > 0) await new Promise((r) => setTimeout(r, 200));
    }
    if (this.#queue.length > 0) {
      this.log.error('settlement entries could not be flushed at shutdown', {
        pending: this.#queue.length,
        journal: this.opts.journal ? `kept in ${this.opts.journal.dir}; replayed on the next start` : 'none: they are lost',
      });
    }
    this.opts.journal?.close();
  }
}
