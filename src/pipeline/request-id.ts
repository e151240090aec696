import { randomUUID } from 'node:crypto';

/**
 * A request id: a UUID version 7 (RFC 9562), i.e. the Unix time in milliseconds in its first 48 bits, then
 * random bits (from randomUUID, which draws from a cached entropy pool). Ids made later sort after ids made
 * earlier (within one millisecond, in random order), so the stores' ledger-by-request indexes grow at their tail:
 * the embedded store's LMDB index then rewrites a few tail pages per settlement batch instead of a random page
 * per entry across the whole index, which kept touching new file pages (resident memory, docs/memory.md).
 */
export function newRequestId(now: number = Date.now()): string {
  const r = randomUUID();
  const ts = now.toString(16).padStart(12, '0');
  // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: keep the random tail and the variant, replace time and version.
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(15)}`;
}
