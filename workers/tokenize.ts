import type { Tiktoken } from 'tiktoken';

let enc: Promise<Tiktoken> | null = null;

/**
 * The o200k encoder, built on first use and then kept for the worker's life. tiktoken is imported here, not at
 * module load: its WASM module and the o200k ranks are the largest part of a worker's resident memory (about
 * 20 MiB for the module and 50 MiB once the ranks are loaded), so a worker that never counts tokens never pays for them.
 */
function encoder(): Promise<Tiktoken> {
  enc ??= import('tiktoken').then((m) => m.get_encoding('o200k_base'));
  return enc;
}

/** Exact o200k token count of the given texts (sum). Leaf task: no gateway imports. */
export async function countTokens({ texts }: { texts: string[] }): Promise<number> {
  const e = await encoder();
  let n = 0;
  for (const t of texts) n += e.encode_ordinary(t).length;
  return n;
}
