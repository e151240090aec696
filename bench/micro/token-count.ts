/**
 * Micro-benchmark: exact o200k counts (src/tokens/o200k.ts) against tiktoken's WebAssembly on the same texts, and what a
 * count on the event loop costs (src/pool/pool.ts INLINE_COUNT_MAX_CHARS, INLINE_COUNT_MERGE_BUDGET): the average over
 * the guardrail training prompts short enough for the loop, and the texts whose merges are slow, which the budget
 * refuses (they go to the tokenizer thread). Every count is checked against tiktoken's while it is timed.
 *
 *   node dist/bench/micro/token-count.js        (ROUNDS=3)
 */
import { get_encoding } from 'tiktoken';
import { readJsonl, trainingPaths } from '../../scripts/guard/data.js';
import { INLINE_COUNT_MAX_CHARS, INLINE_COUNT_MERGE_BUDGET, projectRoot } from '../../src/pool/pool.js';
import { O200k } from '../../src/tokens/o200k.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const prompts = readJsonl(trainingPaths(projectRoot()).data)
  .map((row) => row.text)
  .filter((t): t is string => typeof t === 'string');

const loadStart = performance.now();
const ours = O200k.load();
const loadMs = performance.now() - loadStart;
const tiktoken = get_encoding('o200k_base');

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

let tokens = 0;
for (const p of prompts) {
  const n = ours.count(p);
  if (n !== tiktoken.encode_ordinary(p).length) throw new Error(`count differs from tiktoken's: ${JSON.stringify(p.slice(0, 80))}`);
  tokens += n;
}
let oursMs = Infinity;
let wasmMs = Infinity;
for (let r = 0; r < ROUNDS; r++) {
  oursMs = Math.min(oursMs, time(() => prompts.forEach((p) => ours.count(p))));
  wasmMs = Math.min(wasmMs, time(() => prompts.forEach((p) => tiktoken.encode_ordinary(p))));
}

const short = prompts.filter((p) => p.length <= INLINE_COUNT_MAX_CHARS);
let refused = 0;
let inlineMs = Infinity;
for (let r = 0; r < ROUNDS; r++) {
  refused = 0;
  inlineMs = Math.min(
    inlineMs,
    time(() => {
      for (const p of short) if (ours.countWithin([p], INLINE_COUNT_MERGE_BUDGET) < 0) refused++;
    }),
  );
}

let seed = 7;
const pick = (alphabet: string, n: number): string =>
  Array.from({ length: n }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return alphabet[seed % alphabet.length];
  }).join('');
const slow: [string, string][] = [
  ['1,024 letters, no space', pick('abcdefghijklmnopqrstuvwxyz', 1024)],
  ['1,024 CJK characters', pick('日本語中文字漢字の', 1024)],
  ['1,024 prose characters', 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024)],
];
const us = (ms: number, n: number): string => ((ms * 1000) / n).toFixed(1);
const rows: string[] = [];
for (const [name, text] of slow) {
  if (ours.count(text) !== tiktoken.encode_ordinary(text).length) throw new Error(`count differs from tiktoken's: ${name}`);
  const n = 200;
  const full = time(() => {
    for (let i = 0; i < n; i++) ours.count(text);
  });
  const bounded = time(() => {
    for (let i = 0; i < n; i++) ours.countWithin([text], INLINE_COUNT_MERGE_BUDGET);
  });
  const verdict = ours.countWithin([text], INLINE_COUNT_MERGE_BUDGET) < 0 ? 'tokenizer thread' : 'event loop';
  rows.push(`| ${name} | ${us(full, n)} | ${us(bounded, n)} | ${verdict} |`);
}
tiktoken.free();

console.log(`
## Exact token counts (o200k: src/tokens/o200k.ts against tiktoken's WebAssembly; best of ${ROUNDS} rounds)

Tables loaded in ${loadMs.toFixed(0)} ms. ${prompts.length} training prompts, ${tokens} tokens, every count equal to tiktoken's:
${oursMs.toFixed(0)} ms (${us(oursMs, tokens)} us per token) against ${wasmMs.toFixed(0)} ms (${us(wasmMs, tokens)}), ${(wasmMs / oursMs).toFixed(1)}x.
On the event loop (prompts of at most ${INLINE_COUNT_MAX_CHARS} characters, merge budget ${INLINE_COUNT_MERGE_BUDGET}): ${short.length} prompts,
${us(inlineMs, short.length)} us each on average, ${refused} sent to the tokenizer thread by the budget.

| text | full count us | with the merge budget us | counted on |
|---|---:|---:|---|
${rows.join('\n')}`);
