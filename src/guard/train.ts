/**
 * Trainer core: per-label logistic regression heads over shared hashed features, trained jointly with
 * Adagrad + L2 (applied to the touched rows) and per-head class balancing. Pure and deterministic (seeded).
 */
import { GUARD_LABELS, type GuardLabel } from './labels.js';
import { normalizeText } from './normalize.js';
import { DEFAULT_FEATURE_CONFIG, extractFeatures, FeatureBuffer, featureRows, tokenHashes, type FeatureConfig } from './features.js';
import { createWordRows, HashIndex, pooledVector, type EmbeddingTable } from './embeddings.js';
import { createEmptyModel, DEFAULT_WINDOW_CONFIG, type GuardModel, type WindowConfig } from './model.js';

export type LabelValue = 0 | 1 | null;

export interface TrainExample {
  text: string;
  /** One entry per GUARD_LABELS index; null = unknown (the head skips this example). */
  y: LabelValue[];
  /** Per-label example weight (default 1). */
  w?: number[];
}

export interface TrainOptions {
  epochs: number;
  /** Adagrad base learning rate. */
  lr: number;
  /** L2 strength (per update, on touched rows). */
  l2: number;
  /** Per-head L2 on the sparse rows (by GUARD_LABELS index), overriding l2 where given. */
  labelL2?: ReadonlyArray<number | undefined>;
  seed: number;
  /** Class balancing: weight = (total / (2 * classMass)) ** power. 0 = none, 1 = fully balanced. */
  classBalancePower: number;
  features: FeatureConfig;
  window: WindowConfig;
  /** Dense mean-pooled word-embedding features (embeddings.ts); none when absent. */
  dense?: DenseOptions;
  log?: (msg: string) => void;
}

export interface DenseOptions {
  table: EmbeddingTable;
  /** The pooled vector is sum / max(in-vocabulary tokens, floor) * scale. */
  floor: number;
  scale: number;
  /** L2 strength on the dense rows (they are touched by every example, so they need less than the sparse rows). */
  l2: number;
  /** Heads that get dense features (by GUARD_LABELS index); the others keep zero dense weights. */
  labels: readonly number[];
}

/** Vocabulary index of an embedding table by token hash (as the scorer hashes tokens). */
export function embeddingIndex(table: EmbeddingTable): { index: HashIndex; hashes: Uint32Array } {
  const hashes = new Uint32Array(table.words.length);
  table.words.forEach((w, i) => {
    hashes[i] = tokenHashes(w).hashes[0] ?? 0;
  });
  return { index: new HashIndex(hashes), hashes };
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 10,
  lr: 0.05,
  l2: 1e-3,
  seed: 1,
  classBalancePower: 0.5,
  features: DEFAULT_FEATURE_CONFIG,
  window: DEFAULT_WINDOW_CONFIG,
};

/** Sparse design matrix in CSR form (features de-duplicated per example). */
export interface PreparedFeatures {
  offsets: Int32Array;
  idx: Int32Array;
  val: Float32Array;
}

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffleInPlace<T>(arr: T[], rnd: () => number): T[] {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = arr[i] as T;
    arr[i] = arr[j] as T;
    arr[j] = t;
  }
  return arr;
}

export function prepareFeatures(cfg: FeatureConfig, texts: readonly string[], dense?: DenseOptions): PreparedFeatures {
  const rows = featureRows(cfg);
  const D = dense?.table.dims ?? 0;
  const pooled = new Float32Array(D);
  const vocab = dense !== undefined ? embeddingIndex(dense.table).index : undefined;
  const acc = new Float32Array(rows);
  const seen = new Uint8Array(rows);
  const touched: number[] = [];
  const buf = new FeatureBuffer();
  const offsets = new Int32Array(texts.length + 1);
  let cap = Math.max(1024, texts.length * 256);
  let idx = new Int32Array(cap);
  let val = new Float32Array(cap);
  let n = 0;
  texts.forEach((text, e) => {
    extractFeatures(cfg, normalizeText(text), buf);
    touched.length = 0;
    for (let i = 0; i < buf.n; i++) {
      const j = buf.idx[i] ?? 0;
      if (!seen[j]) {
        seen[j] = 1;
        touched.push(j);
      }
      acc[j] = (acc[j] ?? 0) + (buf.val[i] ?? 0);
    }
    touched.sort((a, b) => a - b);
    if (n + touched.length + D > cap) {
      cap = Math.max(cap * 2, n + touched.length + D);
      const i2 = new Int32Array(cap);
      i2.set(idx.subarray(0, n));
      idx = i2;
      const v2 = new Float32Array(cap);
      v2.set(val.subarray(0, n));
      val = v2;
    }
    for (const j of touched) {
      idx[n] = j;
      val[n] = acc[j] ?? 0;
      n++;
      acc[j] = 0;
      seen[j] = 0;
    }
    if (dense !== undefined && vocab !== undefined) {
      pooledVector(dense.table, vocab, buf.tokens, buf.T, dense.floor, dense.scale, pooled);
      for (let d = 0; d < D; d++) {
        idx[n] = rows + d;
        val[n] = pooled[d] ?? 0;
        n++;
      }
    }
    offsets[e + 1] = n;
  });
  return { offsets, idx: idx.slice(0, n), val: val.slice(0, n) };
}

/** Rows `rows` of a prepared design matrix, in that order. */
export function subsetPrepared(X: PreparedFeatures, rows: readonly number[]): PreparedFeatures {
  let nnz = 0;
  for (const r of rows) nnz += (X.offsets[r + 1] ?? 0) - (X.offsets[r] ?? 0);
  const offsets = new Int32Array(rows.length + 1);
  const idx = new Int32Array(nnz);
  const val = new Float32Array(nnz);
  let n = 0;
  rows.forEach((r, i) => {
    const a = X.offsets[r] ?? 0;
    const b = X.offsets[r + 1] ?? 0;
    idx.set(X.idx.subarray(a, b), n);
    val.set(X.val.subarray(a, b), n);
    n += b - a;
    offsets[i + 1] = n;
  });
  return { offsets, idx, val };
}

/** Per-head class weights [negWeight, posWeight]. */
export function classWeights(examples: readonly TrainExample[], power: number): Array<[number, number]> {
  const L = GUARD_LABELS.length;
  const out: Array<[number, number]> = [];
  for (let l = 0; l < L; l++) {
    let pos = 0;
    let neg = 0;
    for (const ex of examples) {
      const y = ex.y[l];
      const w = ex.w?.[l] ?? 1;
      if (y === 1) pos += w;
      else if (y === 0) neg += w;
    }
    const tot = pos + neg;
    out.push([neg > 0 ? (tot / (2 * neg)) ** power : 1, pos > 0 ? (tot / (2 * pos)) ** power : 1]);
  }
  return out;
}

function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * Train all heads. `prepared` may be passed to reuse a design matrix built from the same texts.
 */
export function trainModel(
  examples: readonly TrainExample[],
  opts: TrainOptions = DEFAULT_TRAIN_OPTIONS,
  prepared?: PreparedFeatures,
): GuardModel {
  const L = GUARD_LABELS.length;
  const X = prepared ?? prepareFeatures(opts.features, examples.map((e) => e.text), opts.dense);
  const model = createEmptyModel(opts.features, opts.window);
  const sparseRows = featureRows(opts.features);
  const D = opts.dense?.table.dims ?? 0;
  const W = new Float32Array((sparseRows + D) * L);
  const denseL2 = opts.dense?.l2 ?? 0;
  const sparseL2 = Float64Array.from({ length: L }, (_x, l) => opts.labelL2?.[l] ?? opts.l2);
  const denseOn = new Uint8Array(L);
  for (const l of opts.dense?.labels ?? []) denseOn[l] = 1;
  const G = new Float32Array(W.length);
  const bias = model.bias;
  const biasG = new Float64Array(L);
  const cw = classWeights(examples, opts.classBalancePower);
  const rnd = mulberry32(opts.seed);
  const order = examples.map((_e, i) => i);
  const z = new Float64Array(L);
  const g = new Float64Array(L);
  const { lr, l2 } = opts;
  const eps = 1e-6;

  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    shuffleInPlace(order, rnd);
    let loss = 0;
    let lossW = 0;
    for (const e of order) {
      const ex = examples[e];
      if (ex === undefined) continue;
      const a = X.offsets[e] ?? 0;
      const b = X.offsets[e + 1] ?? 0;
      for (let l = 0; l < L; l++) z[l] = bias[l] ?? 0;
      for (let k = a; k < b; k++) {
        const base = (X.idx[k] ?? 0) * L;
        const v = X.val[k] ?? 0;
        for (let l = 0; l < L; l++) z[l] = (z[l] ?? 0) + (W[base + l] ?? 0) * v;
      }
      let active = false;
      for (let l = 0; l < L; l++) {
        const y = ex.y[l];
        if (y === null || y === undefined) {
          g[l] = 0;
          continue;
        }
        const p = sigmoid(z[l] ?? 0);
        const weight = (ex.w?.[l] ?? 1) * (cw[l]?.[y] ?? 1);
        g[l] = (p - y) * weight;
        loss -= weight * Math.log(Math.max(1e-12, y === 1 ? p : 1 - p));
        lossW += weight;
        if (g[l] !== 0) active = true;
      }
      if (!active) continue;
      for (let l = 0; l < L; l++) {
        const gl = g[l] ?? 0;
        if (gl === 0) continue;
        const bg = (biasG[l] ?? 0) + gl * gl;
        biasG[l] = bg;
        bias[l] = (bias[l] ?? 0) - (lr * gl) / (Math.sqrt(bg) + eps);
      }
      for (let k = a; k < b; k++) {
        const row = X.idx[k] ?? 0;
        const base = row * L;
        const v = X.val[k] ?? 0;
        const isDense = row >= sparseRows;
        for (let l = 0; l < L; l++) {
          const gl = g[l] ?? 0;
          if (gl === 0 || (isDense && denseOn[l] === 0)) continue;
          const j = base + l;
          const wj = W[j] ?? 0;
          const grad = gl * v + (isDense ? denseL2 : (sparseL2[l] ?? l2)) * wj;
          const gj = (G[j] ?? 0) + grad * grad;
          G[j] = gj;
          W[j] = wj - (lr * grad) / (Math.sqrt(gj) + eps);
        }
      }
    }
    opts.log?.(`epoch ${epoch + 1}/${opts.epochs} weighted log-loss ${(loss / Math.max(1, lossW)).toFixed(4)}`);
  }
  model.weights.set(W.subarray(0, sparseRows * L));
  if (opts.dense !== undefined) model.words = foldDense(opts.dense, W.subarray(sparseRows * L), L);
  const dense = opts.dense !== undefined ? { dims: D, words: opts.dense.table.words.length, floor: opts.dense.floor, scale: opts.dense.scale, l2: opts.dense.l2, labels: opts.dense.labels } : undefined;
  model.meta = { trainedExamples: examples.length, options: { ...opts, log: undefined, features: undefined, window: undefined, dense } };
  return model;
}

/**
 * Fold the dense weights (D x L) into one row per vocabulary word: row_w = scale * E_w . W, so that the mean of the
 * rows of a text's in-vocabulary tokens (floored count) equals the dense features' contribution in training.
 */
function foldDense(dense: DenseOptions, Wd: Float32Array, L: number): ReturnType<typeof createWordRows> {
  const { table } = dense;
  const D = table.dims;
  const V = table.words.length;
  const rows = new Float32Array(V * L);
  for (let i = 0; i < V; i++) {
    for (let l = 0; l < L; l++) {
      let z = 0;
      for (let d = 0; d < D; d++) z += (table.vectors[i * D + d] ?? 0) * (Wd[d * L + l] ?? 0);
      rows[i * L + l] = Math.fround(z * dense.scale);
    }
  }
  return createWordRows(embeddingIndex(table).hashes, rows, dense.floor);
}

/** Labels as a convenience record from a y-array. */
export function labelsRecord(y: readonly LabelValue[]): Partial<Record<GuardLabel, LabelValue>> {
  const out: Partial<Record<GuardLabel, LabelValue>> = {};
  GUARD_LABELS.forEach((l, i) => {
    out[l] = y[i] ?? null;
  });
  return out;
}
