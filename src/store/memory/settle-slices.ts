/** How the embedded store slices a settlement batch into LMDB transactions (MemoryStore.settle). */

/**
 * Settlement entries applied per LMDB transaction when the batch is small. The transaction body runs on the event
 * loop, and each transaction is a commit (its dirty pages written one pwrite each, then an fdatasync) on lmdb's
 * threads: a commit's fixed cost is most of an entry's. Measured by bench/micro/settle-slices.ts (one durable
 * database, 9,600 entries, CPU of every thread per entry, three runs on a busy host): 16 per transaction 77-94 us
 * (a third to a half of it system time), 64 per transaction 27-29 us, 256 per transaction 17-19 us; the body's time
 * on the loop per entry 15-19, 7-8 and 5-6 us. 64 holds the loop for about half a millisecond per transaction, and the
 * loop turns between two slices (each waits for the previous commit), so requests interleave with a large batch
 * instead of queueing behind it. Exported for the test that counts slices.
 */
export const SETTLE_CHUNK = 64;

/**
 * A batch is applied in at most this many slices. Every slice waits for a loop turn and its commit, so with a fixed
 * slice size the store's settlement rate would be capped at SETTLE_CHUNK per turn: on a saturated loop (64
 * connections, ~6 ms turns) that is below the request rate, and the backlog (queue, journal, memory) grew without
 * bound. With a bounded slice count the rate grows with the batch, and the settlement queue sends larger batches
 * when it falls behind (src/billing/settlement.ts).
 */
export const SETTLE_MAX_SLICES = 4;

/** Entries per transaction for a batch of `n`: SETTLE_CHUNK, or more so the batch takes at most SETTLE_MAX_SLICES. */
export function settleSliceSize(n: number): number {
  return Math.max(SETTLE_CHUNK, Math.ceil(n / SETTLE_MAX_SLICES));
}
