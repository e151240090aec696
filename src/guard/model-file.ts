/** The model file: JSON with base64 weight arrays, written atomically (temp file + rename), validated on read. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { featureRows, FEATURE_VERSION, type FeatureConfig } from './features.js';
import { GUARD_LABELS } from './labels.js';
import { createWordRows, HashIndex } from './embeddings.js';
import { attachQ8Table, createEmptyModel, MODEL_FORMAT, type GuardModel, type WindowConfig } from './model.js';
import { structureOffsets } from './structure.js';

interface SerializedModel {
  format: string;
  labels: string[];
  features: FeatureConfig;
  window: WindowConfig;
  bias: number[];
  thresholds: Record<string, number>;
  meta: Record<string, unknown>;
  encoding: GuardModel['encoding'];
  rows: number;
  /** base64 Uint32 LE: delta-encoded indices of stored rows. */
  rowIndex: string;
  /** base64: storedRows * labels.length weights, Float32 LE ('f32') or Int8 ('q8'). */
  rowWeights: string;
  /** Folded word-embedding rows: base64 Uint32 LE token hashes, base64 Float32 LE rows (hashes * labels). */
  words?: { count: number; floor: number; hashes: string; rows: string; scales?: number[] };
}

function u32ToBase64(a: Uint32Array): string {
  const b = Buffer.alloc(a.length * 4);
  for (let i = 0; i < a.length; i++) b.writeUInt32LE(a[i] ?? 0, i * 4);
  return b.toString('base64');
}

function f32ToBase64(a: Float32Array, n: number): string {
  const b = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) b.writeFloatLE(a[i] ?? 0, i * 4);
  return b.toString('base64');
}

export function serializeModel(model: GuardModel): string {
  const L = model.labels.length;
  const rows = featureRows(model.features);
  const w = model.weights;
  const keep: number[] = [];
  for (let r = 0; r < rows; r++) {
    const b = r * L;
    for (let l = 0; l < L; l++) {
      if ((w[b + l] ?? 0) !== 0) {
        keep.push(r);
        break;
      }
    }
  }
  const delta = new Uint32Array(keep.length);
  const packed = new Float32Array(keep.length * L);
  let prev = 0;
  keep.forEach((r, i) => {
    delta[i] = r - prev;
    prev = r;
    packed.set(w.subarray(r * L, r * L + L), i * L);
  });
  const enc = model.encoding;
  let rowWeights: string;
  if (enc.kind === 'q8') {
    const q = Buffer.alloc(packed.length);
    for (let i = 0; i < packed.length; i++) {
      const v = Math.round((packed[i] ?? 0) / (enc.scales[i % L] ?? 1));
      if (v < -127 || v > 127) throw new Error('guard model: weights are not quantised (call quantizeWeights)');
      q.writeInt8(v, i);
    }
    rowWeights = q.toString('base64');
  } else {
    rowWeights = f32ToBase64(packed, packed.length);
  }
  const out: SerializedModel = {
    format: model.format,
    labels: model.labels,
    features: model.features,
    window: model.window,
    bias: Array.from(model.bias),
    thresholds: model.thresholds,
    meta: model.meta,
    encoding: enc,
    rows: keep.length,
    rowIndex: u32ToBase64(delta),
    rowWeights,
  };
  const wr = model.words;
  if (wr !== undefined) {
    const sc = wr.scales;
    let rows: string;
    if (sc !== undefined) {
      const q = Buffer.alloc(wr.rows.length);
      for (let i = 0; i < wr.rows.length; i++) q.writeInt8(Math.round((wr.rows[i] ?? 0) / (sc[i % L] ?? 1)), i);
      rows = q.toString('base64');
    } else {
      rows = f32ToBase64(wr.rows, wr.rows.length);
    }
    out.words = { count: wr.hashes.length, floor: wr.floor, hashes: u32ToBase64(wr.hashes), rows, ...(sc !== undefined ? { scales: sc } : {}) };
  }
  return JSON.stringify(out);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export interface ParseOptions {
  /**
   * Score-only: a q8 model's int8 weights go straight into its scoring table (2 MiB for 2^18 rows x 8 labels)
   * and the float32 table (8 MiB) is never allocated; the model then scores exactly like a full load, but must not
   * be trained, quantised or saved (as after compactForScoring). An f32 model loads in full. Its tables (the int8
   * table, the word rows and their index) are on SharedArrayBuffers, ready to be shared with other threads.
   */
  scoringOnly?: boolean;
}

export function parseModel(json: string, opts: ParseOptions = {}): GuardModel {
  const raw: unknown = JSON.parse(json);
  if (!isRecord(raw) || raw['format'] !== MODEL_FORMAT) throw new Error(`guard model: unsupported format (expected ${MODEL_FORMAT})`);
  const s = raw as unknown as SerializedModel;
  const labels = s.labels;
  if (labels.length !== GUARD_LABELS.length || labels.some((l, i) => l !== GUARD_LABELS[i])) {
    throw new Error(`guard model: label set ${JSON.stringify(labels)} does not match GUARD_LABELS`);
  }
  if (s.features.version !== FEATURE_VERSION) {
    throw new Error(`guard model: feature version ${s.features.version}, this build expects ${FEATURE_VERSION}; retrain`);
  }
  const L = labels.length;
  const enc = s.encoding ?? { kind: 'f32' };
  const direct = opts.scoringOnly === true && enc.kind === 'q8' && L === 8;
  const model = createEmptyModel(s.features, s.window, !direct);
  model.bias = Float64Array.from(s.bias);
  for (const l of model.labels) {
    const t = s.thresholds[l];
    if (typeof t === 'number') model.thresholds[l] = t;
  }
  if (L === 8) model.structureOffsets = structureOffsets(model.thresholds);
  model.meta = s.meta;
  model.encoding = enc;
  const idxBuf = Buffer.from(s.rowIndex, 'base64');
  const wBuf = Buffer.from(s.rowWeights, 'base64');
  const bytesPer = enc.kind === 'q8' ? 1 : 4;
  if (idxBuf.length !== s.rows * 4 || wBuf.length !== s.rows * L * bytesPer) throw new Error('guard model: corrupt weight arrays');
  if (enc.kind === 'q8' && enc.scales.length !== L) throw new Error('guard model: corrupt q8 scales');
  const totalRows = featureRows(s.features);
  if (direct) {
    const q = new Int8Array(new SharedArrayBuffer(totalRows * L));
    const src = new Int8Array(wBuf.buffer, wBuf.byteOffset, wBuf.length);
    let r = 0;
    for (let i = 0; i < s.rows; i++) {
      r += idxBuf.readUInt32LE(i * 4);
      if (r >= totalRows) throw new Error('guard model: row index out of range');
      q.set(src.subarray(i * L, i * L + L), r * L);
    }
    attachQ8Table(model, q);
  }
  const w = model.weights;
  let r = 0;
  for (let i = 0; i < (direct ? 0 : s.rows); i++) {
    r += idxBuf.readUInt32LE(i * 4);
    if (r >= totalRows) throw new Error('guard model: row index out of range');
    const base = r * L;
    if (enc.kind === 'q8') {
      for (let l = 0; l < L; l++) w[base + l] = Math.fround(wBuf.readInt8(i * L + l) * (enc.scales[l] ?? 1));
    } else {
      for (let l = 0; l < L; l++) w[base + l] = wBuf.readFloatLE((i * L + l) * 4);
    }
  }
  if (s.words !== undefined) {
    const { count, floor } = s.words;
    const hb = Buffer.from(s.words.hashes, 'base64');
    const rb = Buffer.from(s.words.rows, 'base64');
    const sc = s.words.scales;
    if (hb.length !== count * 4 || rb.length !== count * L * (sc !== undefined ? 1 : 4) || !(floor >= 1) || (sc !== undefined && sc.length !== L)) {
      throw new Error('guard model: corrupt word rows');
    }
    // Score-only tables go on SharedArrayBuffers at once (src/guard/shared-model.ts shares them with every
    // scoring thread as they are): a copy would leave the private ones as malloc garbage of the loading thread.
    const shared = opts.scoringOnly === true;
    const hashes = shared ? new Uint32Array(new SharedArrayBuffer(count * 4)) : new Uint32Array(count);
    const rows = shared ? new Float32Array(new SharedArrayBuffer(count * L * 4)) : new Float32Array(count * L);
    for (let i = 0; i < count; i++) hashes[i] = hb.readUInt32LE(i * 4);
    if (sc !== undefined) for (let i = 0; i < rows.length; i++) rows[i] = Math.fround(rb.readInt8(i) * (sc[i % L] ?? 1));
    else for (let i = 0; i < rows.length; i++) rows[i] = rb.readFloatLE(i * 4);
    model.words = createWordRows(hashes, rows, floor, sc, new HashIndex(hashes, shared));
  }
  return model;
}

export function saveModel(path: string, model: GuardModel): number {
  mkdirSync(dirname(path), { recursive: true });
  const json = serializeModel(model);
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, json);
  renameSync(tmp, path);
  return Buffer.byteLength(json);
}

export function loadModel(path: string, opts: ParseOptions = {}): GuardModel {
  return parseModel(readFileSync(path, 'utf8'), opts);
}
