/**
 * A score-only guard model shared between the event loop that loaded it (workers/guard.ts loadSharedModel) and the
 * scoring threads without a copy: its tables (the int8 n-gram table, the word rows and their hash index, ~3.6 MiB)
 * are on SharedArrayBuffers (a score-only load puts them there; shareModel moves any that are not), which a
 * structured clone (piscina's workerData) shares instead of copying. The event loop scores short texts
 * (src/pool/inline-scorer.ts) from the same memory the threads score from, and no thread parses the model file.
 */
import { createWordRows, HashIndex, type WordRows } from './embeddings.js';
import type { FeatureConfig } from './features.js';
import type { GuardLabel } from './labels.js';
import { attachQ8Table, createEmptyModel, q8Weights, type GuardModel, type WindowConfig } from './model.js';

/** What a worker hands over: small plain fields, and typed arrays over SharedArrayBuffers. */
export interface SharedGuardModel {
  labels: GuardLabel[];
  features: FeatureConfig;
  window: WindowConfig;
  bias: number[];
  thresholds: Record<GuardLabel, number>;
  /** Per-label scales of the int8 weights. */
  scales: number[];
  /** The sub-category rule offsets in force (the operator's cuts applied), null when the model has none. */
  structureOffsets: number[] | null;
  /** featureRows(features) * 8 int8 weights. */
  q: Int8Array;
  words: SharedWords | null;
}

/** The folded word rows and their hash index's tables. */
interface SharedWords {
  hashes: Uint32Array;
  rows: Float32Array;
  floor: number;
  scales: number[] | null;
  keys: Uint32Array;
  slots: Int32Array;
}

/** Word rows over shared tables (the index's tables are used as they are, not rebuilt). */
function wordRowsOf(w: SharedWords): WordRows {
  return createWordRows(w.hashes, w.rows, w.floor, w.scales ?? undefined, new HashIndex({ keys: w.keys, slots: w.slots }));
}

type SharableArray = Int8Array | Uint32Array | Int32Array | Float32Array;

/** The same values on a SharedArrayBuffer (the array itself when it is on one already). */
function onShared<T extends SharableArray>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const ctor = a.constructor as new (buffer: SharedArrayBuffer) => T;
  const out = new ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

/**
 * Moves a q8 model's tables onto SharedArrayBuffers (the model scores from them from then on; its former tables
 * become garbage) and describes it for another thread. Null for a model that is not a q8 model with 8 labels,
 * which only scores from its float table.
 */
export function shareModel(model: GuardModel): SharedGuardModel | null {
  const enc = model.encoding;
  const q = q8Weights(model);
  if (q === null || enc.kind !== 'q8') return null;
  const sq = onShared(q);
  if (sq !== q) attachQ8Table(model, sq);
  let words: SharedWords | null = null;
  const w = model.words;
  if (w !== undefined) {
    words = { hashes: onShared(w.hashes), rows: onShared(w.rows), floor: w.floor, scales: w.scales ?? null, keys: onShared(w.index.keys), slots: onShared(w.index.slots) };
    model.words = wordRowsOf(words);
  }
  return {
    labels: [...model.labels],
    features: { ...model.features },
    window: { ...model.window },
    bias: [...model.bias],
    thresholds: { ...model.thresholds },
    scales: [...enc.scales],
    structureOffsets: model.structureOffsets === undefined ? null : [...model.structureOffsets],
    q: sq,
    words,
  };
}

/** The scoring model described by shareModel, over the shared tables (nothing large is copied). */
export function modelFromShared(s: SharedGuardModel): GuardModel {
  const model = createEmptyModel(s.features, s.window, false);
  if (s.labels.length !== model.labels.length || s.labels.some((l, i) => l !== model.labels[i])) {
    throw new Error(`guard model: shared label set ${JSON.stringify(s.labels)} does not match this build's`);
  }
  model.bias = Float64Array.from(s.bias);
  model.thresholds = { ...s.thresholds };
  model.encoding = { kind: 'q8', scales: [...s.scales] };
  if (s.structureOffsets !== null) model.structureOffsets = Float64Array.from(s.structureOffsets);
  attachQ8Table(model, s.q);
  if (s.words !== null) model.words = wordRowsOf(s.words);
  return model;
}
