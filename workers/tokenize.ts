import { countO200k } from '../src/tokens/o200k.js';

/**
 * Exact o200k token count of the given texts (sum), for texts too long to count on the event loop
 * (src/pool/pool.ts INLINE_COUNT_MAX_CHARS), from the event loop's o200k tables, handed over on shared memory
 * (workerData; src/tokens/o200k.ts). Leaf task: no gateway imports (o200k.ts imports node built-ins only).
 */
export function countTokens({ texts }: { texts: string[] }): number {
  return countO200k(texts);
}
