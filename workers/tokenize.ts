import { get_encoding, type Tiktoken } from 'tiktoken';

let enc: Tiktoken | null = null;

/** Exact o200k token count of the given texts (sum). Leaf task: no gateway imports. */
export function countTokens({ texts }: { texts: string[] }): number {
  enc ??= get_encoding('o200k_base');
  let n = 0;
  for (const t of texts) n += enc.encode_ordinary(t).length;
  return n;
}
