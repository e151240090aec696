import { countO200k } from '../src/tokens/o200k.js';

/**
 * Exact o200k token count of the given texts (sum), for texts too long to count on the event loop
 * (src/pool/pool.ts INLINE_COUNT_MAX_CHARS). The tables (~4 MiB, src/tokens/o200k.ts) are loaded by the first count
 * and kept for the thread's life. Leaf task: no gateway imports (o200k.ts imports node built-ins only).
 */
export function countTokens({ texts }: { texts: string[] }): number {
  return countO200k(texts);
}
