/** How the embedded store slices a settlement batch into LMDB transactions (MemoryStore.settle). */

/**
 * Settlement entries applied per LMDB transaction when the batch is small. The transaction body runs on the event
 * loop (15-40 us per entry measured, more under CPU contention): 16 entries hold the loop for well under a
 * millisecond, and the loop turns between two slices (each waits for the previous commit), so requests interleave
 * with a batch instead of queueing behind it. Exported for the test that counts slices.
 */
export const SETTLE_CHUNK = 16;

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
