/** The one-pass window scorer over the hashed features of features.ts (split out: same feature space, own concern). */
import {
  B,
  BI_SALT,
  BI_TAGS,
  CHAR_BASIS,
  charBucket,
  combine,
  combine3,
  fmix,
  FNV_OFFSET,
  FNV_PRIME,
  isWordCode,
  LEX_FEATURE_COUNT,
  LEX_MEMBER,
  TRI_TAGS,
  UNI_SALT,
  UNI_TAGS,
  type FeatureConfig,
} from './features.js';
import type { WeightTable, WindowScratch } from './window-table.js';
import type { WordRows } from './embeddings.js';
import { applyStructure } from './structure.js';
import { windowLexicon } from './window-lexicon.js';
import { addRow, boundaryIndex, charGramRow, charPrefix, sortPrefix } from './window-chars.js';
// ---------------------------------------------------------------------------------------------------------------
// Windowed scoring in one pass.
//
// A long text is scored as the max over windows [a, b) of its normalised form. Instead of featurising every window
// separately (each character hashed chunk/stride times), the text is featurised once: every char n-gram's and
// word uni/bi-gram's weight row is added to a prefix sum keyed by where the n-gram ends (chars) or by its token
// index (words), so the weight sum of the n-grams inside a window is a difference of two prefix sums. What a window
// has that the whole text does not (the virtual ' ' padding at its two edges, as extractFeatures adds) and what
// the prefix difference wrongly includes (the <= 10 char n-grams that start before a and end inside the window) are
// hashed directly. Window feature counts (for the 1/sqrt length normalisation) follow from the window length and its
// token count, and the lexicon features are recomputed per window from the text's token tags, visiting only tagged
// tokens. Total work: O(text) hashing + O(windows) per label.

/** Word characters below 128 (isWordCode), as a table. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = isWordCode(c) ? 1 : 0;

/**
 * Word sums at the sorted token indices pts[0..np): for point k with token index p, sc.ptUni[k*8 + l] = sum of the
 * unigram rows of tokens < p, ptBi = sum of the bigram rows (t-1, t) for 1 <= t < p, ptEmb / ptEmbN = sum and count
 * of the folded embedding rows of the in-vocabulary tokens < p. Running sums in token order (exactly the values a
 * full prefix-sum array would hold at those indices), kept in locals and written out only at the points.
 */
function wordPoints(sc: WindowScratch, T: number, mask: number, tbl: Int8Array | Float32Array, words: WordRows | undefined, np: number): void {
  const th = sc.tokHash;
  const pts = sc.pts;
  const pu = sc.ptUni;
  const pb = sc.ptBi;
  const pe = sc.ptEmb;
  const pn = sc.ptEmbN;
  const wr = words?.rows;
  const wi = words?.index;
  let u0 = 0, u1 = 0, u2 = 0, u3 = 0, u4 = 0, u5 = 0, u6 = 0, u7 = 0;
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
  let e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0, e6 = 0, e7 = 0;
  let en = 0;
  let k = 0;
  let prev = 0;
  for (let t = 0; ; t++) {
    while (k < np && pts[k] === t) {
      const d = k << 3;
      pu[d] = u0; pu[d + 1] = u1; pu[d + 2] = u2; pu[d + 3] = u3; pu[d + 4] = u4; pu[d + 5] = u5; pu[d + 6] = u6; pu[d + 7] = u7;
      pb[d] = b0; pb[d + 1] = b1; pb[d + 2] = b2; pb[d + 3] = b3; pb[d + 4] = b4; pb[d + 5] = b5; pb[d + 6] = b6; pb[d + 7] = b7;
      pe[d] = e0; pe[d + 1] = e1; pe[d + 2] = e2; pe[d + 3] = e3; pe[d + 4] = e4; pe[d + 5] = e5; pe[d + 6] = e6; pe[d + 7] = e7;
      pn[k] = en;
      k++;
    }
    if (t >= T || k >= np) break;
    const h = th[t] ?? 0;
    const ru = (fmix(h ^ UNI_SALT) & mask) << 3;
    u0 += tbl[ru] ?? 0; u1 += tbl[ru + 1] ?? 0; u2 += tbl[ru + 2] ?? 0; u3 += tbl[ru + 3] ?? 0;
    u4 += tbl[ru + 4] ?? 0; u5 += tbl[ru + 5] ?? 0; u6 += tbl[ru + 6] ?? 0; u7 += tbl[ru + 7] ?? 0;
    if (t > 0) {
      const rb = (fmix(combine(prev, h) ^ BI_SALT) & mask) << 3;
      b0 += tbl[rb] ?? 0; b1 += tbl[rb + 1] ?? 0; b2 += tbl[rb + 2] ?? 0; b3 += tbl[rb + 3] ?? 0;
      b4 += tbl[rb + 4] ?? 0; b5 += tbl[rb + 5] ?? 0; b6 += tbl[rb + 6] ?? 0; b7 += tbl[rb + 7] ?? 0;
    }
    prev = h;
    if (wi !== undefined && wr !== undefined) {
      const r = wi.get(h);
      if (r >= 0) {
        const q = r << 3;
        e0 += wr[q] ?? 0; e1 += wr[q + 1] ?? 0; e2 += wr[q + 2] ?? 0; e3 += wr[q + 3] ?? 0;
        e4 += wr[q + 4] ?? 0; e5 += wr[q + 5] ?? 0; e6 += wr[q + 6] ?? 0; e7 += wr[q + 7] ?? 0;
        en++;
      }
    }
  }
}

/** Tokens of norm with their spans and hashes (sc.tokStart / tokEnd / tokHash); returns the count. */
function scanTokens(norm: string, sc: WindowScratch): number {
  const N = norm.length;
  // --- tokens with spans (same boundary rules as tokenHashes)
  const ts = sc.tokStart;
  const te = sc.tokEnd;
  const th = sc.tokHash;
  let T = 0;
  let start = -1;
  let hw = FNV_OFFSET; // hashToken of the current word, built as it is scanned
  for (let i = 0; i <= N; i++) {
    const c = i < N ? norm.charCodeAt(i) : 32;
    let word = c < 128 ? ASCII_WORD[c] === 1 : isWordCode(c);
    if (!word && c === 39 && start >= 0 && i + 1 < N && isWordCode(norm.charCodeAt(i + 1))) word = true;
    if (word) {
      if (start < 0) {
        start = i;
        hw = FNV_OFFSET;
      }
      hw = Math.imul(hw ^ c, FNV_PRIME);
    } else if (start >= 0) {
      ts[T] = start;
      te[T] = i;
      th[T] = hw >>> 0;
      T++;
      start = -1;
    }
  }
  return T;
}

/** Lexicon tags of the whole token sequence (sc.tags, uniTag / biTag / triTag, negPre); returns the tagged count. */
function lexiconTags(sc: WindowScratch, T: number): number {
  const th = sc.tokHash;
  const tags = sc.tags;
  const tagged = sc.tagged;
  let nTagged = 0;
  {
    // per token: its unigram tag, the tag of the bigram ending at it and of the trigram ending at it (a window
    // takes only the phrases wholly inside it, see localTag)
    const ut = sc.uniTag;
    const bt = sc.biTag;
    const tt = sc.triTag;
    let memPrev = 0;
    let memPrev2 = 0;
    for (let t = 0; t < T; t++) {
      const h = th[t] ?? 0;
      const mem = LEX_MEMBER[h & 0xffff] ?? 0;
      let mu = 0;
      let mb = 0;
      let mt = 0;
      if (mem !== 0) {
        mu = UNI_TAGS.get(h) ?? 0;
        if (t > 0 && memPrev !== 0) {
          const hp = th[t - 1] ?? 0;
          mb = BI_TAGS.get(combine(hp, h)) ?? 0;
          if (t > 1 && memPrev2 !== 0) mt = TRI_TAGS.get(combine3(th[t - 2] ?? 0, hp, h)) ?? 0;
        }
      }
      ut[t] = mu;
      bt[t] = mb;
      tt[t] = mt;
      tags[t] = mu | mb | mt;
      if (mb !== 0) tags[t - 1] = (tags[t - 1] ?? 0) | mb;
      if (mt !== 0) {
        tags[t - 1] = (tags[t - 1] ?? 0) | mt;
        tags[t - 2] = (tags[t - 2] ?? 0) | mt;
      }
      memPrev2 = memPrev;
      memPrev = mem;
    }
    const np = sc.negPre;
    np[0] = 0;
    for (let t = 0; t < T; t++) {
      const m = tags[t] ?? 0;
      np[t + 1] = (np[t] ?? 0) + (m & B.neg ? 1 : 0);
      if (m !== 0) tagged[nTagged++] = t;
    }
  }

  return nTagged;
}

/**
 * Max logit per label over the windows `segs` ([a, b) offsets into `norm`, each at least 2 * charMax long)
 * into out[0..L). Equal, up to float rounding, to featurising each window on its own, except at a window's two
 * edges: a word cut by the edge is left out of the word features (its char n-grams are kept), and a lexicon
 * phrase cut by the edge still tags its inside tokens.
 */
export function windowScores(
  cfg: FeatureConfig,
  norm: string,
  segs: ReadonlyArray<readonly [number, number]>,
  w: WeightTable,
  out: Float64Array,
  sc: WindowScratch,
  words?: WordRows,
): void {
  const L = w.L;
  const N = norm.length;
  sc.ensure(N, L, (cfg.charMax - cfg.charMin + 1) * N, segs.length);
  const mask = (1 << cfg.bits) - 1;
  const bits = cfg.bits;
  const cmin = cfg.charMin;
  const cmax = cfg.charMax;
  const tbl = w.table;

  const nb = charPrefix(cfg, norm, segs, w, sc);
  const bnd = sc.bnd;
  const cp = sc.charPre;
  const T = scanTokens(norm, sc);
  const ts = sc.tokStart;
  const te = sc.tokEnd;
  // tokens wholly inside each window, and the token indices whose word sums the windows read
  const nseg = segs.length;
  const wta = sc.winTa;
  const wtb = sc.winTb;
  const pts = sc.pts;
  let npts = 0;
  {
    let ta = 0;
    let tb = 0;
    for (let s = 0; s < nseg; s++) {
      const seg = segs[s];
      const a = seg?.[0] ?? 0;
      const b = seg?.[1] ?? 0;
      while (ta < T && (ts[ta] ?? 0) < a) ta++;
      if (tb < ta) tb = ta;
      while (tb < T && (te[tb] ?? 0) <= b) tb++;
      wta[s] = ta;
      wtb[s] = tb;
      pts[npts++] = ta;
      pts[npts++] = Math.min(ta + 1, tb);
      pts[npts++] = tb;
    }
  }
  sortPrefix(pts, npts);
  let np = 0;
  for (let i = 0; i < npts; i++) if (np === 0 || pts[np - 1] !== pts[i]) pts[np++] = pts[i] ?? 0;
  wordPoints(sc, T, mask, tbl, words, np);
  const pu = sc.ptUni;
  const pb = sc.ptBi;
  const pe = sc.ptEmb;
  const pn = sc.ptEmbN;
  const lexOn = cfg.lexScale !== 0 && T > 0;
  const nTagged = lexOn ? lexiconTags(sc, T) : 0;
  const tagged = sc.tagged;

  // --- windows
  out.fill(-Infinity, 0, L);
  const edge = sc.edge;
  // per conjunction: the last token (in this window) holding a class of its first / second mask
  const lastA = sc.lastA;
  const lastB = sc.lastB;
  const lexBase = (1 << cfg.bits) * L;
  const zw = sc.window;
  let ga = 0;
  for (let s = 0; s < nseg; s++) {
    const seg = segs[s];
    const a = seg?.[0] ?? 0;
    const b = seg?.[1] ?? 0;
    // char n-grams of ' ' + norm[a, b) + ' ': the prefix difference holds those starting in [a, b); take out the
    // ones running past b and add the ones on the virtual edge spaces
    edge.fill(0, 0, L);
    for (let i = Math.max(a, b - cmax + 1); i < b; i++) {
      for (let k = cmin; k <= cmax; k++) if (i + k > b && i + k <= N) addRow(edge, 0, w, charGramRow(norm, i, k, bits), -1);
    }
    // ' ' + norm[a, a + k - 1) and norm[b - k + 1, b) + ' ' (b - a >= 2 * cmax, so both fit inside the window)
    let hl = Math.imul(CHAR_BASIS ^ 32, FNV_PRIME);
    for (let k = 2; k <= cmax; k++) {
      hl = Math.imul(hl ^ norm.charCodeAt(a + k - 2), FNV_PRIME);
      if (k >= cmin) addRow(edge, 0, w, charBucket(hl, k, bits), 1);
    }
    for (let k = cmin; k <= cmax; k++) {
      let hr = CHAR_BASIS;
      for (let q = b - k + 1; q < b; q++) hr = Math.imul(hr ^ norm.charCodeAt(q), FNV_PRIME);
      addRow(edge, 0, w, charBucket(Math.imul(hr ^ 32, FNV_PRIME), k, bits), 1);
    }
    const m = b - a + 2;
    let nChar = 0;
    for (let k = cmin; k <= cmax; k++) nChar += Math.max(0, m - k + 1);
    const vc = cfg.charScale / Math.sqrt(Math.max(nChar, cfg.charFloor));

    // tokens wholly inside [a, b): [ta, tb)
    const ta = wta[s] ?? 0;
    const tb = wtb[s] ?? 0;
    const nt = Math.max(0, tb - ta);
    const nw = nt + Math.max(0, nt - 1);
    const vw = nw > 0 ? cfg.wordScale / Math.sqrt(Math.max(nw, cfg.wordFloor)) : 0;

    // lexicon features of the window's tokens
    let fired = 0;
    if (lexOn && nt > 0) {
      while (ga < nTagged && (tagged[ga] ?? 0) < ta) ga++;
      fired = windowLexicon(sc, tagged, ga, nTagged, ta, tb, lastA, lastB);
    }

    const ca = boundaryIndex(bnd, a, nb) * 8;
    const cb = boundaryIndex(bnd, b, nb) * 8;
    const ka = boundaryIndex(pts, ta, np);
    const kb = boundaryIndex(pts, tb, np);
    const ua = ka * 8;
    const ub = kb * 8;
    const ba = boundaryIndex(pts, Math.min(ta + 1, tb), np) * 8;
    const ne = words !== undefined ? (pn[kb] ?? 0) - (pn[ka] ?? 0) : 0;
    const ke = ne > 0 && words !== undefined ? 1 / Math.max(ne, words.floor) : 0;
    for (let l = 0; l < L; l++) {
      const chars = (cp[cb + l] ?? 0) - (cp[ca + l] ?? 0) + (edge[l] ?? 0);
      const wordSum = (pu[ub + l] ?? 0) - (pu[ua + l] ?? 0) + (pb[ub + l] ?? 0) - (pb[ba + l] ?? 0);
      let lex = 0;
      if (fired !== 0) for (let f = 0; f < LEX_FEATURE_COUNT; f++) if (fired & (1 << f)) lex += tbl[lexBase + f * L + l] ?? 0;
      const emb = ke !== 0 ? ((pe[ub + l] ?? 0) - (pe[ua + l] ?? 0)) * ke : 0;
      zw[l] = (w.bias[l] ?? 0) + (w.scales[l] ?? 1) * (chars * vc + wordSum * vw + lex * cfg.lexScale) + emb;
    }
    applyStructure(zw, fired, w.structureOffsets);
    for (let l = 0; l < L; l++) if ((zw[l] ?? 0) > (out[l] ?? -Infinity)) out[l] = zw[l] ?? 0;
  }
}
