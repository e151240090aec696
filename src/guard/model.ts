/**
 * Linear guardrail model: one logistic-regression head per label over shared hashed features.
 * Weights are row-major [featureRow * L + label] so that one feature touches one contiguous L-float row.
 */
import { GUARD_LABELS, type GuardLabel } from './labels.js';
import { normalizeText } from './normalize.js';
import { CONJ_BASE, extractFeatures, FeatureBuffer, featureRows, type FeatureConfig } from './features.js';
import { windowScores } from './window-scores.js';
import { WindowScratch, words32View, type WeightTable } from './window-table.js';
import { quantizeWordRows, type WordRows } from './embeddings.js';
import { applyStructure } from './structure.js';
import { quotedMention } from './mention.js';

export const MODEL_FORMAT = 'svc-guard-v1';

/**
 * How long prompts are scored. Texts up to maxSingle are scored whole (like the training texts). Longer texts are
 * scored as overlapping windows of `chunk` units every `chunkStride` units that together cover the whole text
 * (max logit per label), so a short injection or harmful passage in the middle of a long pasted document is
 * scored at about the length the heads were trained on instead of being diluted by the rest. The work grows
 * linearly with the length (chunk / chunkStride times the text); the gateway caps the scored characters
 * (guardrails.maxChars, reported as x-svc-guardrails: partial).
 */
export interface WindowConfig {
  /** Texts up to this many UTF-16 units get a whole-text pass. */
  maxSingle: number;
  /** Texts longer than this (and up to maxSingle) also get window passes; 0 = whole pass only up to maxSingle. */
  chunkMin: number;
  chunk: number;
  chunkStride: number;
  /**
   * Legacy caps: when > 0, windows are taken only from the first `head` and the last `tail` units (the middle is
   * then not scored). 0 = windows cover the whole text (the default).
   */
  head: number;
  tail: number;
}

export const DEFAULT_WINDOW_CONFIG: WindowConfig = { maxSingle: 512, chunkMin: 0, chunk: 384, chunkStride: 256, head: 0, tail: 0 };

export interface GuardModel {
  format: typeof MODEL_FORMAT;
  labels: GuardLabel[];
  features: FeatureConfig;
  window: WindowConfig;
  /** Per-label bias. */
  bias: Float64Array;
  /** featureRows(features) * labels.length, row-major. */
  weights: Float32Array;
  /** Default decision thresholds per label (chosen on a held-out split of the training data). */
  thresholds: Record<GuardLabel, number>;
  /**
   * Weight encoding on disk. 'q8': weights are exactly q * scale[label] with integer q in [-127, 127]
   * (see quantizeWeights), stored as int8; 'f32': raw float32.
   */
  encoding: { kind: 'f32' } | { kind: 'q8'; scales: number[] };
  /** Folded word-embedding rows (embeddings.ts): the mean of the in-vocabulary tokens' rows adds to the logits. */
  words?: WordRows;
  /**
   * Offsets of the sub-category rules (structure.ts structureOffsets), set from the stored cuts when a model file is
   * loaded; absent while training (the rules' own offsets, with which the cuts were chosen).
   */
  structureOffsets?: Float64Array;
  meta: Record<string, unknown>;
}

export type GuardScores = Record<GuardLabel, number>;

/** weights = false: the model gets an empty float table (a score-only load fills its int8 table instead). */
export function createEmptyModel(features: FeatureConfig, window: WindowConfig = DEFAULT_WINDOW_CONFIG, weights = true): GuardModel {
  const labels = [...GUARD_LABELS];
  const thresholds = Object.fromEntries(labels.map((l) => [l, 0.5])) as Record<GuardLabel, number>;
  return {
    format: MODEL_FORMAT,
    labels,
    features: { ...features },
    window: { ...window },
    bias: new Float64Array(labels.length),
    weights: new Float32Array(weights ? featureRows(features) * labels.length : 0),
    thresholds,
    encoding: { kind: 'f32' },
    meta: {},
  };
}

/**
 * Quantise weights in place to 8 bits per weight with one scale per label (max |w| / 127). After this the
 * in-memory model is exactly what serialise/parse reproduces.
 */
export function quantizeWeights(model: GuardModel): void {
  const L = model.labels.length;
  const w = model.weights;
  const scales: number[] = [];
  for (let l = 0; l < L; l++) {
    let max = 0;
    for (let i = l; i < w.length; i += L) max = Math.max(max, Math.abs(w[i] ?? 0));
    const scale = max > 0 ? max / 127 : 1;
    scales.push(scale);
    for (let i = l; i < w.length; i += L) w[i] = Math.fround(Math.round((w[i] ?? 0) / scale) * scale);
  }
  model.encoding = { kind: 'q8', scales };
  if (model.words !== undefined) quantizeWordRows(model.words, L);
  q8Cache.delete(model);
  tableCache.delete(model);
}

/**
 * Scoring copy of q8 weights: the integers themselves (1 byte per weight, so the 2^18 x 8 table is 2 MiB and
 * stays in cache; the float table is 8 MiB of random reads) and the per-label scales, applied once per text.
 */
interface Q8Table {
  q: Int8Array;
  scales: Float64Array;
}

const q8Cache = new WeakMap<GuardModel, Q8Table>();

function q8Table(model: GuardModel): Q8Table | null {
  const enc = model.encoding;
  if (enc.kind !== 'q8' || model.labels.length !== 8) return null;
  let t = q8Cache.get(model);
  if (t === undefined) {
    const w = model.weights;
    const q = new Int8Array(w.length);
    for (let i = 0; i < w.length; i++) q[i] = Math.round((w[i] ?? 0) / (enc.scales[i & 7] ?? 1));
    t = { q, scales: Float64Array.from(enc.scales) };
    q8Cache.set(model, t);
  }
  return t;
}

/**
 * Makes a q8 model score-only and compact: builds its int8 scoring table (1 byte per weight) and releases the
 * float32 copy (4 bytes per weight, 8 MiB for 2^18 rows x 8 labels), which scoring of a q8 model never reads.
 * Returns false (and changes nothing) for an f32 model. Afterwards the model can still score, but must not be
 * trained, quantised or saved (workers/guard.ts uses this on its private copy).
 */
export function compactForScoring(model: GuardModel): boolean {
  if (q8Table(model) === null) return false;
  model.weights = new Float32Array(0);
  return true;
}

/**
 * Score-only model from its integer table: q holds featureRows * 8 int8 weights (weight = q * scales[label]), the
 * float table stays empty (as after compactForScoring). Used by the score-only load (model-file.ts), which fills q
 * straight from the file without the 8 MiB float32 table in between.
 */
export function attachQ8Table(model: GuardModel, q: Int8Array): void {
  const enc = model.encoding;
  if (enc.kind !== 'q8' || model.labels.length !== 8) throw new Error('guard model: attachQ8Table needs a q8 model with 8 labels');
  if (q.length !== featureRows(model.features) * 8) throw new Error('guard model: q8 table has the wrong size');
  model.weights = new Float32Array(0);
  q8Cache.set(model, { q, scales: Float64Array.from(enc.scales) });
  tableCache.delete(model);
}

/** The int8 scoring table of a q8 model with 8 labels (weight = q * scale of its label); null for any other model. */
export function q8Weights(model: GuardModel): Int8Array | null {
  return q8Table(model)?.q ?? null;
}

const sharedBuf = new FeatureBuffer();

function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** Raw logits of one already normalised text (featurised whole) into out[0..L). */
function logitsInto(model: GuardModel, norm: string, out: Float64Array, buf: FeatureBuffer): void {
  linearLogits(model, norm, out, buf);
  if (model.labels.length !== 8) return;
  // lexicon classes present: the class indicator rows (2^bits + class index) among the extracted features
  const base = 1 << model.features.bits;
  let classes = 0;
  for (let i = buf.n - 1; i >= 0; i--) {
    const j = (buf.idx[i] ?? 0) - base;
    if (j < 0) break;
    if (j < CONJ_BASE) classes |= 1 << j;
  }
  applyStructure(out, classes, model.structureOffsets);
}

function linearLogits(model: GuardModel, norm: string, out: Float64Array, buf: FeatureBuffer): void {
  const L = model.labels.length;
  extractFeatures(model.features, norm, buf);
  for (let l = 0; l < L; l++) out[l] = model.bias[l] ?? 0;
  const w = model.weights;
  const idx = buf.idx;
  const val = buf.val;
  const n = buf.n;
  const q8 = q8Table(model);
  if (q8 !== null) {
    const q = q8.q;
    let z0 = 0, z1 = 0, z2 = 0, z3 = 0, z4 = 0, z5 = 0, z6 = 0, z7 = 0;
    for (let i = 0; i < n; i++) {
      const b = (idx[i] ?? 0) * 8;
      const v = val[i] ?? 0;
      z0 += (q[b] ?? 0) * v;
      z1 += (q[b + 1] ?? 0) * v;
      z2 += (q[b + 2] ?? 0) * v;
      z3 += (q[b + 3] ?? 0) * v;
      z4 += (q[b + 4] ?? 0) * v;
      z5 += (q[b + 5] ?? 0) * v;
      z6 += (q[b + 6] ?? 0) * v;
      z7 += (q[b + 7] ?? 0) * v;
    }
    const sc = q8.scales;
    out[0] = (out[0] ?? 0) + z0 * (sc[0] ?? 1); out[1] = (out[1] ?? 0) + z1 * (sc[1] ?? 1);
    out[2] = (out[2] ?? 0) + z2 * (sc[2] ?? 1); out[3] = (out[3] ?? 0) + z3 * (sc[3] ?? 1);
    out[4] = (out[4] ?? 0) + z4 * (sc[4] ?? 1); out[5] = (out[5] ?? 0) + z5 * (sc[5] ?? 1);
    out[6] = (out[6] ?? 0) + z6 * (sc[6] ?? 1); out[7] = (out[7] ?? 0) + z7 * (sc[7] ?? 1);
    addWordRows(model.words, buf.tokens, buf.T, out, L);
    return;
  }
  if (L === 8) {
    let z0 = out[0] ?? 0, z1 = out[1] ?? 0, z2 = out[2] ?? 0, z3 = out[3] ?? 0;
    let z4 = out[4] ?? 0, z5 = out[5] ?? 0, z6 = out[6] ?? 0, z7 = out[7] ?? 0;
    for (let i = 0; i < n; i++) {
      const b = (idx[i] ?? 0) * 8;
      const v = val[i] ?? 0;
      z0 += (w[b] ?? 0) * v;
      z1 += (w[b + 1] ?? 0) * v;
      z2 += (w[b + 2] ?? 0) * v;
      z3 += (w[b + 3] ?? 0) * v;
      z4 += (w[b + 4] ?? 0) * v;
      z5 += (w[b + 5] ?? 0) * v;
      z6 += (w[b + 6] ?? 0) * v;
      z7 += (w[b + 7] ?? 0) * v;
    }
    out[0] = z0; out[1] = z1; out[2] = z2; out[3] = z3;
    out[4] = z4; out[5] = z5; out[6] = z6; out[7] = z7;
    addWordRows(model.words, buf.tokens, buf.T, out, L);
    return;
  }
  for (let i = 0; i < n; i++) {
    const b = (idx[i] ?? 0) * L;
    const v = val[i] ?? 0;
    for (let l = 0; l < L; l++) out[l] = (out[l] ?? 0) + (w[b + l] ?? 0) * v;
  }
  addWordRows(model.words, buf.tokens, buf.T, out, L);
}

/** Mean of the folded embedding rows of the in-vocabulary tokens (floored count), added to out[0..L). */
function addWordRows(words: WordRows | undefined, toks: Uint32Array, T: number, out: Float64Array, L: number): void {
  if (words === undefined || T === 0) return;
  const rows = words.rows;
  const acc = wordAcc;
  acc.fill(0);
  let n = 0;
  for (let t = 0; t < T; t++) {
    const r = words.index.get(toks[t] ?? 0);
    if (r < 0) continue;
    n++;
    const b = r * L;
    for (let l = 0; l < L; l++) acc[l] = (acc[l] ?? 0) + (rows[b + l] ?? 0);
  }
  if (n === 0) return;
  const k = 1 / Math.max(n, words.floor);
  for (let l = 0; l < L; l++) out[l] = (out[l] ?? 0) + (acc[l] ?? 0) * k;
}

const wordAcc = new Float64Array(8);

/** [start, end) segments scored for a text of length len; the score is the max over segments. */
export function scoringSegments(len: number, wc: WindowConfig): Array<[number, number]> {
  const whole = len <= wc.maxSingle;
  const windowed = !whole || (wc.chunkMin > 0 && len > wc.chunkMin);
  if (!windowed || wc.chunk <= 0 || wc.chunk >= len) return [[0, len]];
  const segs: Array<[number, number]> = whole ? [[0, len]] : [];
  const stride = Math.max(1, Math.min(wc.chunkStride, wc.chunk));
  const last = len - wc.chunk;
  const capped = wc.head > 0 || wc.tail > 0;
  const starts: number[] = [];
  for (let s = 0; s < last; s += stride) {
    if (capped && s >= wc.head && s < len - wc.tail - wc.chunk) continue;
    starts.push(s);
  }
  starts.push(last);
  for (const s of starts) segs.push([s, s + wc.chunk]);
  return segs;
}

const sharedScratch = new WindowScratch();
const tableCache = new WeakMap<GuardModel, WeightTable>();

/** The table the window scorer reads (int8 + per-label scales for q8 models, else the float weights). */
export function weightTable(model: GuardModel): WeightTable {
  let t = tableCache.get(model);
  if (t === undefined) {
    const q8 = q8Table(model);
    const L = model.labels.length;
    t = q8 !== null
      ? { table: q8.q, words32: words32View(q8.q), scales: q8.scales, bias: model.bias, L, structureOffsets: model.structureOffsets }
      : { table: model.weights, scales: new Float64Array(L).fill(1), bias: model.bias, L, structureOffsets: model.structureOffsets };
    tableCache.set(model, t);
  }
  return t;
}

/**
 * Logits per label (max over the scoring segments) of a raw text. The text is normalised once and segments are
 * offsets into the normalised text; a text with one whole segment is featurised as in training, a windowed one in
 * one pass over the text (windowScores: prefix sums of per-n-gram weight rows, so each window costs O(1)).
 */
export function logitsOf(model: GuardModel, text: string, buf: FeatureBuffer = sharedBuf): Float64Array {
  const L = model.labels.length;
  const best = new Float64Array(L);
  const norm = normalizeText(text);
  const segs = scoringSegments(norm.length, model.window);
  const minWin = 2 * model.features.charMax;
  if (segs.length === 1 && segs[0]?.[0] === 0 && segs[0][1] === norm.length) {
    logitsInto(model, norm, best, buf);
  } else if (L === 8 && segs.every(([a, b]) => b - a >= minWin)) {
    windowScores(model.features, norm, segs, weightTable(model), best, sharedScratch, model.words);
  } else {
    best.fill(-Infinity);
    const z = new Float64Array(L);
    for (const [a, b] of segs) {
      logitsInto(model, norm.slice(a, b), z, buf);
      for (let l = 0; l < L; l++) if ((z[l] ?? 0) > (best[l] ?? 0)) best[l] = z[l] ?? 0;
    }
  }
  return best;
}

/**
 * Reference for tests: every segment of the normalised text featurised on its own (the pre-prefix-sum scorer).
 */
export function logitsPerWindowReference(model: GuardModel, text: string, buf: FeatureBuffer = new FeatureBuffer()): Float64Array {
  const L = model.labels.length;
  const norm = normalizeText(text);
  const best = new Float64Array(L).fill(-Infinity);
  const z = new Float64Array(L);
  for (const [a, b] of scoringSegments(norm.length, model.window)) {
    logitsInto(model, norm.slice(a, b), z, buf);
    for (let l = 0; l < L; l++) if ((z[l] ?? 0) > (best[l] ?? 0)) best[l] = z[l] ?? 0;
  }
  return best;
}

/**
 * Logit of 0.2: an injection score under it is left as it is, quoted mention or not, so most texts pay for one pass
 * only. The trained cuts are at least 0.5; an operator's cut under 0.2 sees the unmasked score.
 */
const MENTION_GATE_LOGIT = Math.log(0.2 / 0.8);

/**
 * The injection head's index when the quoted-mention pass is worth running on these logits (mention.ts: only a
 * score that could reach a cut pays for it), else -1.
 */
export function mentionHead(model: GuardModel, best: Float64Array): number {
  const pi = model.labels.indexOf('prompt_injection');
  return pi >= 0 && (best[pi] ?? 0) >= MENTION_GATE_LOGIT ? pi : -1;
}

/** Probabilities per label as a plain array in model.labels order. */
export function scoreTextArray(model: GuardModel, text: string, buf: FeatureBuffer = sharedBuf): Float64Array {
  const best = logitsOf(model, text, buf);
  // A quoted mention of attack phrases (mention.ts): the injection head also scores the text without the quotations.
  const pi = mentionHead(model, best);
  const masked = pi >= 0 ? quotedMention(text) : null;
  if (masked !== null) best[pi] = Math.min(best[pi] ?? 0, logitsOf(model, masked, buf)[pi] ?? 0);
  for (let l = 0; l < best.length; l++) best[l] = sigmoid(best[l] ?? 0);
  return best;
}

/** Probabilities of logits, as a record by label. */
export function scoresOfLogits(model: GuardModel, best: Float64Array): GuardScores {
  const out = {} as GuardScores;
  model.labels.forEach((l, i) => {
    out[l] = sigmoid(best[i] ?? 0);
  });
  return out;
}

/** Score a prompt: probability 0..1 per label. */
export function scoreText(model: GuardModel, text: string): GuardScores {
  const p = scoreTextArray(model, text);
  const out = {} as GuardScores;
  model.labels.forEach((l, i) => {
    out[l] = p[i] ?? 0;
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Serialisation: JSON with base64 little-endian arrays. Only non-zero weight rows are stored (sparse).

export { loadModel, parseModel, saveModel, serializeModel } from './model-file.js';

/** Apply thresholds: labels whose probability reaches the threshold. */
export function flaggedLabels(scores: GuardScores, thresholds: Record<GuardLabel, number>): GuardLabel[] {
  return GUARD_LABELS.filter((l) => scores[l] >= thresholds[l]);
}
