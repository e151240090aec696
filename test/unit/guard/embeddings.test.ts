import { describe, expect, it } from 'vitest';
import { encodeEmbeddingTable, HashIndex, type EmbeddingTable } from '../../../src/guard/embeddings.js';
import { tokenHashes } from '../../../src/guard/features.js';
import { GUARD_LABELS } from '../../../src/guard/labels.js';
import { logitsOf, logitsPerWindowReference, parseModel, quantizeWeights, scoreTextArray, serializeModel } from '../../../src/guard/model.js';
import { applyStructure, structureOffsets } from '../../../src/guard/structure.js';
import { mulberry32, trainModel, type TrainOptions } from '../../../src/guard/train.js';
import { B } from '../../../src/guard/features.js';
import { SYNTHETIC, syntheticExamples, TEST_TRAIN } from './helpers.js';

/** Every word of the synthetic set gets a seeded random unit vector; "vermin" and "cockroaches" share one. */
function syntheticTable(dims = 16): EmbeddingTable {
  const words = [...new Set(Object.values(SYNTHETIC).flat().join(' ').toLowerCase().split(/[^a-z']+/).filter((w) => w.length > 0))];
  if (!words.includes('cockroaches')) words.push('cockroaches');
  const rnd = mulberry32(5);
  const vectors = new Float32Array(words.length * dims);
  for (let i = 0; i < vectors.length; i++) vectors[i] = rnd() * 2 - 1;
  const v = words.indexOf('vermin');
  const c = words.indexOf('cockroaches');
  if (v < 0) throw new Error('synthetic set lost the word "vermin"');
  vectors.copyWithin(c * dims, v * dims, v * dims + dims);
  // the table as training reads it: int8 round trip
  const buf = encodeEmbeddingTable(vectors, words.length, dims);
  const q = new Float32Array(words.length * dims);
  for (let i = 0; i < words.length; i++) {
    const s = buf.readFloatLE(12 + i * 4);
    for (let d = 0; d < dims; d++) q[i * dims + d] = buf.readInt8(12 + words.length * 4 + i * dims + d) * s;
  }
  return { dims, words, vectors: q };
}

const DENSE_TRAIN: TrainOptions = {
  ...TEST_TRAIN,
  dense: { table: syntheticTable(), floor: 4, scale: 4, l2: 1e-6, labels: GUARD_LABELS.map((_l, i) => i) },
};

describe('guard word-embedding features', () => {
  it('finds every vocabulary hash and nothing else', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta'];
    const idx = new HashIndex(words.map((w) => tokenHashes(w).hashes[0] ?? 0));
    words.forEach((w, i) => expect(idx.get(tokenHashes(w).hashes[0] ?? 0)).toBe(i));
    expect(idx.get(tokenHashes('epsilon').hashes[0] ?? 0)).toBe(-1);
  });

  it('folds the dense weights into per-word rows that survive q8 serialisation', () => {
    const model = trainModel(syntheticExamples(), DENSE_TRAIN);
    expect(model.words?.hashes.length).toBe(DENSE_TRAIN.dense?.table.words.length);
    quantizeWeights(model);
    const json = serializeModel(model);
    const back = parseModel(json);
    // A loaded model applies the structure with its cuts (offsets and caps); the trained one gets the same.
    model.structureOffsets = structureOffsets(model.thresholds);
    for (const t of [...SYNTHETIC.hate, ...SYNTHETIC.benign, 'x'.repeat(3000) + ' vermin']) {
      expect(Array.from(scoreTextArray(back, t))).toEqual(Array.from(scoreTextArray(model, t)));
    }
    expect(serializeModel(back)).toBe(json);
  });

  it('one-pass window scores with word rows equal per-window featurisation', () => {
    const model = trainModel(syntheticExamples(), DENSE_TRAIN);
    quantizeWeights(model);
    const words = ['you', 'all', 'kid', 'sex', 'gun', 'now', 'ban', 'zap', 'pet', 'red'];
    for (let n = 100; n < 400; n += 61) {
      const toks: string[] = [];
      for (let i = 0; i < n; i++) toks.push(words[(i * 7 + n) % words.length] ?? '');
      const text = toks.join(' ');
      const a = logitsOf(model, text);
      const b = logitsPerWindowReference(model, text);
      for (let l = 0; l < a.length; l++) expect(Math.abs((a[l] ?? 0) - (b[l] ?? 0))).toBeLessThan(1e-4);
    }
  });

  it('gives a word never seen in training the row of its twin in vector space', () => {
    // "zorblings are vermin ..." is a hate example; "cockroaches" never occurs in training but shares vermin's vector
    const model = trainModel(syntheticExamples(), DENSE_TRAIN);
    const w = model.words;
    if (w === undefined) throw new Error('no word rows');
    const row = (word: string): number[] => {
      const r = w.index.get(tokenHashes(word).hashes[0] ?? 0);
      expect(r).toBeGreaterThanOrEqual(0);
      return Array.from(w.rows.subarray(r * 8, r * 8 + 8));
    };
    const hate = GUARD_LABELS.indexOf('hate');
    expect(row('cockroaches')).toEqual(row('vermin'));
    expect(Math.abs(row('cockroaches')[hate] ?? 0)).toBeGreaterThan(0);
  });
});

describe('guard sub-category structure', () => {
  const at = (l: (typeof GUARD_LABELS)[number]): number => GUARD_LABELS.indexOf(l);
  const logit = (p: number): number => Math.log(p / (1 - p));
  /** Cuts of a loaded model; each test sets the ones it is about. */
  const CUTS = { prompt_injection: 0.7, hate: 0.5, 'hate/threatening': 0.5, 'self-harm': 0.7, sexual: 0.6, 'sexual/minors': 0.6, violence: 0.7, 'violence/graphic': 0.5 };

  it('lifts a child head to its parent only when the qualifier class is in the window', () => {
    const z = new Float64Array(8).fill(-5);
    z[at('sexual')] = 2;
    z[at('violence')] = 3;
    const none = Float64Array.from(z);
    applyStructure(none, 0);
    expect(Array.from(none)).toEqual(Array.from(z));
    const minor = Float64Array.from(z);
    applyStructure(minor, B.minor);
    expect(minor[at('sexual/minors')]).toBe(2);
    expect(minor[at('violence/graphic')]).toBe(-5);
    const gore = Float64Array.from(z);
    applyStructure(gore, B.gore | B.sexual);
    expect(gore[at('violence/graphic')]).toBe(3);
    expect(gore[at('sexual/minors')]).toBe(-5);
  });

  it("with a model's cuts, refuses a child through its parent only where the parent clears its own cut", () => {
    const cuts = { ...CUTS, sexual: 0.66, 'sexual/minors': 0.6, violence: 0.8 };
    const offsets = structureOffsets(cuts);
    // violence at 0.7 (under its 0.8 cut) with a gore word: under the graphic cut too, not refused as graphic.
    const under = new Float64Array(8).fill(-5);
    under[at('violence')] = logit(0.7);
    applyStructure(under, B.gore, offsets);
    expect(under[at('violence/graphic')]!).toBeLessThan(logit(0.5));
    // Without the offsets (the rule's own 0, as in training) the same window reached 0.7 on graphic.
    const trained = Float64Array.from(under.fill(-5));
    trained[at('violence')] = logit(0.7);
    applyStructure(trained, B.gore);
    expect(trained[at('violence/graphic')]).toBeCloseTo(logit(0.7));
    // violence at its cut or over: graphic at its cut or over.
    const over = new Float64Array(8).fill(-5);
    over[at('violence')] = logit(0.85);
    applyStructure(over, B.gore, offsets);
    expect(over[at('violence/graphic')]!).toBeGreaterThanOrEqual(logit(0.5));
    // Never more lenient than the rule's own offset: a child cut above its parent's keeps offset 0.
    expect(structureOffsets({ ...cuts, 'hate/threatening': 0.9 })[2]).toBe(0);
  });

  it("caps sexual/minors' own score by the sexual score in a loaded model, and only there", () => {
    const cuts = { ...CUTS, sexual: 0.6, 'sexual/minors': 0.55, violence: 0.7 };
    const offsets = structureOffsets(cuts);
    // An education question: the minors head alone over its cut, sexual far under its own.
    const z = new Float64Array(8).fill(-5);
    z[at('sexual')] = logit(0.4);
    z[at('sexual/minors')] = logit(0.7);
    const capped = Float64Array.from(z);
    applyStructure(capped, B.minor, offsets);
    expect(capped[at('sexual/minors')]!).toBeCloseTo(logit(0.4) + logit(0.55) - logit(0.6) + 0.5);
    expect(capped[at('sexual/minors')]!).toBeLessThan(logit(0.55));
    // Training (no offsets): untouched.
    const trained = Float64Array.from(z);
    applyStructure(trained, B.minor);
    expect(trained[at('sexual/minors')]).toBe(logit(0.7));
    // Sexual near its cut (within the 0.5 logit cap): minors still over its cut.
    const near = Float64Array.from(z);
    near[at('sexual')] = logit(0.58);
    applyStructure(near, B.minor, offsets);
    expect(near[at('sexual/minors')]!).toBeGreaterThan(logit(0.55));
    // The other sub-categories have no cap.
    expect(Number.isNaN(offsets[3 + 1]!)).toBe(true);
    expect(Number.isNaN(offsets[3 + 2]!)).toBe(true);
  });

  it('never lowers a child head', () => {
    const z = new Float64Array(8).fill(-5);
    z[at('hate/threatening')] = 4;
    z[at('hate')] = 1;
    applyStructure(z, B.threat);
    expect(z[at('hate/threatening')]).toBe(4);
  });
});
