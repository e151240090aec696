/**
 * Straightforward reference for the one-pass window scorer (window-scores.ts): every window featurised directly,
 * without prefix sums, packed words, register accumulators or shared scratch. Char n-grams of ' ' + window + ' ',
 * the word uni/bi-grams and folded embedding rows of the tokens wholly inside the window, and the lexicon features
 * of those tokens (extractFeatures of the window's tokens joined by spaces).
 */
import {
  BI_SALT,
  CHAR_BASIS,
  charBucket,
  combine,
  extractFeatures,
  FeatureBuffer,
  fmix,
  FNV_OFFSET,
  FNV_PRIME,
  isWordCode,
} from '../../../src/guard/features.js';
import { UNI_SALT } from '../../../src/guard/features.js';
import { normalizeText } from '../../../src/guard/normalize.js';
import { applyStructure } from '../../../src/guard/structure.js';
import { scoringSegments, weightTable, type GuardModel } from '../../../src/guard/model.js';

interface Tok {
  start: number;
  end: number;
  hash: number;
}

function tokens(s: string): Tok[] {
  const out: Tok[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    const word = isWordCode(c) || (c === 39 && start >= 0 && i + 1 < s.length && isWordCode(s.charCodeAt(i + 1)));
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      let h = FNV_OFFSET;
      for (let k = start; k < i; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME);
      out.push({ start, end: i, hash: h >>> 0 });
      start = -1;
    }
  }
  return out;
}

/** Max logit per label over the model's scoring segments of the normalised text. */
export function windowLogitsReference(model: GuardModel, text: string): Float64Array {
  const cfg = model.features;
  const w = weightTable(model);
  const L = 8;
  const mask = (1 << cfg.bits) - 1;
  const norm = normalizeText(text);
  const toks = tokens(norm);
  const best = new Float64Array(L).fill(-Infinity);
  const buf = new FeatureBuffer();
  const row = (r: number, l: number): number => w.table[r * L + l] ?? 0;
  for (const [a, b] of scoringSegments(norm.length, model.window)) {
    const chars = new Array<number>(L).fill(0);
    const s = ` ${norm.slice(a, b)} `;
    let nChar = 0;
    for (let i = 0; i < s.length; i++) {
      for (let k = cfg.charMin; k <= cfg.charMax && i + k <= s.length; k++) {
        let h = CHAR_BASIS;
        for (let q = i; q < i + k; q++) h = Math.imul(h ^ s.charCodeAt(q), FNV_PRIME);
        const r = charBucket(h, k, cfg.bits);
        for (let l = 0; l < L; l++) chars[l] = (chars[l] ?? 0) + row(r, l);
        nChar++;
      }
    }
    const inside = toks.filter((t) => t.start >= a && t.end <= b);
    const wordSum = new Array<number>(L).fill(0);
    const emb = new Array<number>(L).fill(0);
    let ne = 0;
    inside.forEach((t, i) => {
      const ru = fmix(t.hash ^ UNI_SALT) & mask;
      for (let l = 0; l < L; l++) wordSum[l] = (wordSum[l] ?? 0) + row(ru, l);
      const prev = inside[i - 1];
      if (prev !== undefined) {
        const rb = fmix(combine(prev.hash, t.hash) ^ BI_SALT) & mask;
        for (let l = 0; l < L; l++) wordSum[l] = (wordSum[l] ?? 0) + row(rb, l);
      }
      const wr = model.words;
      const er = wr !== undefined ? wr.index.get(t.hash) : -1;
      if (wr !== undefined && er >= 0) {
        ne++;
        for (let l = 0; l < L; l++) emb[l] = (emb[l] ?? 0) + (wr.rows[er * L + l] ?? 0);
      }
    });
    const nt = inside.length;
    const nw = nt + Math.max(0, nt - 1);
    const vw = nw > 0 ? cfg.wordScale / Math.sqrt(Math.max(nw, cfg.wordFloor)) : 0;
    const vc = cfg.charScale / Math.sqrt(Math.max(nChar, cfg.charFloor));
    let fired = 0;
    if (cfg.lexScale !== 0 && nt > 0) {
      extractFeatures(cfg, inside.map((t) => norm.slice(t.start, t.end)).join(' '), buf);
      for (let i = 0; i < buf.n; i++) {
        const f = (buf.idx[i] ?? 0) - (1 << cfg.bits);
        if (f >= 0) fired |= 1 << f;
      }
    }
    const ke = ne > 0 && model.words !== undefined ? 1 / Math.max(ne, model.words.floor) : 0;
    const z = new Float64Array(L);
    for (let l = 0; l < L; l++) {
      let lex = 0;
      for (let f = 0; f < 32; f++) if (fired & (1 << f)) lex += row((1 << cfg.bits) + f, l);
      z[l] = (w.bias[l] ?? 0) + (w.scales[l] ?? 1) * ((chars[l] ?? 0) * vc + (wordSum[l] ?? 0) * vw + lex * cfg.lexScale) + (emb[l] ?? 0) * ke;
    }
    applyStructure(z, fired, w.structureOffsets);
    for (let l = 0; l < L; l++) if ((z[l] ?? 0) > (best[l] ?? 0)) best[l] = z[l] ?? 0;
  }
  return best;
}
