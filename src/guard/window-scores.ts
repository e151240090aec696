/** The one-pass window scorer over the hashed features of features.ts (split out: same feature space, own concern). */
import {
  B,
  BI_SALT,
  BI_TAGS,
  CHAR_BASIS,
  charBucket,
  combine,
  combine3,
  CONJ,
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

/** Rows summed in 16-bit lanes before unpacking: 4 char n-grams per position at most 255 each (biased). */
const FLUSH_ROWS = 240;

/** Index of x in the sorted array bnd (x is present). */
function boundaryIndex(bnd: number[], x: number): number {
  let lo = 0;
  let hi = bnd.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bnd[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


function addRow(dst: Float64Array, d: number, w: WeightTable, row: number, sign: number): void {
  const L = w.L;
  const t = w.table;
  const b = row * L;
  for (let l = 0; l < L; l++) dst[d + l] = (dst[d + l] ?? 0) + sign * (t[b + l] ?? 0);
}

/** Hash bucket of the char n-gram s[from, from + k). */
function charGramRow(s: string, from: number, k: number, bits: number): number {
  let h = CHAR_BASIS;
  for (let i = from; i < from + k; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return charBucket(h, k, bits);
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
  sc.ensure(N, L);
  const mask = (1 << cfg.bits) - 1;
  const bits = cfg.bits;
  const cmin = cfg.charMin;
  const cmax = cfg.charMax;
  const tbl = w.table;

  // --- char n-grams of norm. charPre[j*8 + l] = weight sum of the n-grams starting before bnd[j], for the sorted
  // window boundaries bnd (only those prefix values are needed). With the packed table (q8: each row's 8 weights as
  // biased bytes in two 32-bit words), rows are summed two 16-bit lanes per add and unpacked every FLUSH positions.
  const bnd: number[] = [];
  for (const [a, b] of segs) bnd.push(a, b);
  bnd.sort((x, y) => x - y);
  const nb = bnd.length;
  if (sc.charPre.length < (nb + 1) * 8) sc.charPre = new Float64Array((nb + 1) * 8);
  const cp = sc.charPre;
  const tot = sc.edge;
  tot.fill(0, 0, 8);
  let j = 0;
  const pk = w.packed;
  if (pk !== undefined) {
    let e0 = 0, o0 = 0, e1 = 0, o1 = 0, cnt = 0;
    const fast345 = cmin === 3 && cmax === 5;
    for (let i = 0; i <= N; i++) {
      const at = j < nb && bnd[j] === i;
      if (at || cnt >= FLUSH_ROWS || i === N) {
        const bias = 128 * cnt;
        tot[0] = (tot[0] ?? 0) + ((e0 & 0xffff) - bias); tot[2] = (tot[2] ?? 0) + ((e0 >>> 16) - bias);
        tot[1] = (tot[1] ?? 0) + ((o0 & 0xffff) - bias); tot[3] = (tot[3] ?? 0) + ((o0 >>> 16) - bias);
        tot[4] = (tot[4] ?? 0) + ((e1 & 0xffff) - bias); tot[6] = (tot[6] ?? 0) + ((e1 >>> 16) - bias);
        tot[5] = (tot[5] ?? 0) + ((o1 & 0xffff) - bias); tot[7] = (tot[7] ?? 0) + ((o1 >>> 16) - bias);
        e0 = 0; o0 = 0; e1 = 0; o1 = 0; cnt = 0;
        while (j < nb && bnd[j] === i) {
          cp.set(tot.subarray(0, 8), j * 8);
          j++;
        }
      }
      if (i === N) break;
      if (fast345 && i + 5 <= N) {
        // the default 3..5-gram orders unrolled: five chars, five FNV steps, three rows, no inner loop
        const h2 = Math.imul(Math.imul(CHAR_BASIS ^ norm.charCodeAt(i), FNV_PRIME) ^ norm.charCodeAt(i + 1), FNV_PRIME);
        const h3 = Math.imul(h2 ^ norm.charCodeAt(i + 2), FNV_PRIME);
        const h4 = Math.imul(h3 ^ norm.charCodeAt(i + 3), FNV_PRIME);
        const h5 = Math.imul(h4 ^ norm.charCodeAt(i + 4), FNV_PRIME);
        const r3 = charBucket(h3, 3, bits) << 1;
        const r4 = charBucket(h4, 4, bits) << 1;
        const r5 = charBucket(h5, 5, bits) << 1;
        const a0 = pk[r3] ?? 0x80808080, a1 = pk[r3 + 1] ?? 0x80808080;
        const b0 = pk[r4] ?? 0x80808080, b1 = pk[r4 + 1] ?? 0x80808080;
        const d0 = pk[r5] ?? 0x80808080, d1 = pk[r5 + 1] ?? 0x80808080;
        e0 += (a0 & 0x00ff00ff) + (b0 & 0x00ff00ff) + (d0 & 0x00ff00ff);
        o0 += ((a0 >>> 8) & 0x00ff00ff) + ((b0 >>> 8) & 0x00ff00ff) + ((d0 >>> 8) & 0x00ff00ff);
        e1 += (a1 & 0x00ff00ff) + (b1 & 0x00ff00ff) + (d1 & 0x00ff00ff);
        o1 += ((a1 >>> 8) & 0x00ff00ff) + ((b1 >>> 8) & 0x00ff00ff) + ((d1 >>> 8) & 0x00ff00ff);
        cnt += 3;
        continue;
      }
      let h = CHAR_BASIS;
      const kmax = Math.min(cmax, N - i);
      for (let k = 0; k < kmax; k++) {
        h = Math.imul(h ^ norm.charCodeAt(i + k), FNV_PRIME);
        if (k + 1 >= cmin) {
          const r = charBucket(h, k + 1, bits) << 1;
          const w0 = pk[r] ?? 0x80808080;
          const w1 = pk[r + 1] ?? 0x80808080;
          e0 += w0 & 0x00ff00ff; o0 += (w0 >>> 8) & 0x00ff00ff;
          e1 += w1 & 0x00ff00ff; o1 += (w1 >>> 8) & 0x00ff00ff;
          cnt++;
        }
      }
    }
  } else {
    for (let i = 0; i <= N; i++) {
      while (j < nb && bnd[j] === i) {
        cp.set(tot.subarray(0, 8), j * 8);
        j++;
      }
      if (i === N) break;
      let h = CHAR_BASIS;
      const kmax = Math.min(cmax, N - i);
      for (let k = 0; k < kmax; k++) {
        h = Math.imul(h ^ norm.charCodeAt(i + k), FNV_PRIME);
        if (k + 1 >= cmin) addRow(tot, 0, w, charBucket(h, k + 1, bits), 1);
      }
    }
  }

  // --- tokens with spans (same boundary rules as tokenHashes)
  const ts = sc.tokStart;
  const te = sc.tokEnd;
  const th = sc.tokHash;
  let T = 0;
  let start = -1;
  let hw = FNV_OFFSET; // hashToken of the current word, built as it is scanned
  for (let i = 0; i <= N; i++) {
    const c = i < N ? norm.charCodeAt(i) : 32;
    let word = isWordCode(c);
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
  // uniPre[t] = sum of unigram rows of tokens < t; biPre[t] = sum of bigram rows (t'-1, t') for 1 <= t' < t
  const up = sc.uniPre;
  const bp = sc.biPre;
  for (let l = 0; l < L; l++) {
    up[l] = 0;
    bp[l] = 0;
  }
  for (let t = 0; t < T; t++) {
    const d = (t + 1) << 3;
    const h = th[t] ?? 0;
    const ru = (fmix(h ^ UNI_SALT) & mask) << 3;
    up[d] = (up[d - 8] ?? 0) + (tbl[ru] ?? 0); up[d + 1] = (up[d - 7] ?? 0) + (tbl[ru + 1] ?? 0);
    up[d + 2] = (up[d - 6] ?? 0) + (tbl[ru + 2] ?? 0); up[d + 3] = (up[d - 5] ?? 0) + (tbl[ru + 3] ?? 0);
    up[d + 4] = (up[d - 4] ?? 0) + (tbl[ru + 4] ?? 0); up[d + 5] = (up[d - 3] ?? 0) + (tbl[ru + 5] ?? 0);
    up[d + 6] = (up[d - 2] ?? 0) + (tbl[ru + 6] ?? 0); up[d + 7] = (up[d - 1] ?? 0) + (tbl[ru + 7] ?? 0);
    if (t > 0) {
      const rb = (fmix(combine(th[t - 1] ?? 0, h) ^ BI_SALT) & mask) << 3;
      bp[d] = (bp[d - 8] ?? 0) + (tbl[rb] ?? 0); bp[d + 1] = (bp[d - 7] ?? 0) + (tbl[rb + 1] ?? 0);
      bp[d + 2] = (bp[d - 6] ?? 0) + (tbl[rb + 2] ?? 0); bp[d + 3] = (bp[d - 5] ?? 0) + (tbl[rb + 3] ?? 0);
      bp[d + 4] = (bp[d - 4] ?? 0) + (tbl[rb + 4] ?? 0); bp[d + 5] = (bp[d - 3] ?? 0) + (tbl[rb + 5] ?? 0);
      bp[d + 6] = (bp[d - 2] ?? 0) + (tbl[rb + 6] ?? 0); bp[d + 7] = (bp[d - 1] ?? 0) + (tbl[rb + 7] ?? 0);
    } else {
      for (let l = 0; l < 8; l++) bp[d + l] = bp[d - 8 + l] ?? 0;
    }
  }

  // --- folded word-embedding rows: prefix sums of the in-vocabulary tokens' rows and of their count
  const ep = sc.embPre;
  const ec = sc.embCnt;
  if (words !== undefined) {
    const wr = words.rows;
    const wi = words.index;
    for (let l = 0; l < 8; l++) ep[l] = 0;
    ec[0] = 0;
    for (let t = 0; t < T; t++) {
      const d = (t + 1) << 3;
      const r = wi.get(th[t] ?? 0);
      if (r < 0) {
        for (let l = 0; l < 8; l++) ep[d + l] = ep[d - 8 + l] ?? 0;
        ec[t + 1] = ec[t] ?? 0;
        continue;
      }
      const rb = r << 3;
      for (let l = 0; l < 8; l++) ep[d + l] = (ep[d - 8 + l] ?? 0) + (wr[rb + l] ?? 0);
      ec[t + 1] = (ec[t] ?? 0) + 1;
    }
  }

  // --- lexicon tags of the whole token sequence
  const tags = sc.tags;
  const tagged = sc.tagged;
  let nTagged = 0;
  const lexOn = cfg.lexScale !== 0 && T > 0;
  if (lexOn) {
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

  // --- windows
  out.fill(-Infinity, 0, L);
  const edge = sc.edge;
  // per conjunction: the last token (in this window) holding a class of its first / second mask
  const lastA = new Int32Array(CONJ.length);
  const lastB = new Int32Array(CONJ.length);
  const lexBase = (1 << cfg.bits) * L;
  const zw = sc.window;
  let ta = 0;
  let tb = 0;
  let ga = 0;
  for (const [a, b] of segs) {
    // char n-grams of ' ' + norm[a, b) + ' ': the prefix difference holds those starting in [a, b); take out the
    // ones running past b and add the ones on the virtual edge spaces
    edge.fill(0, 0, L);
    for (let i = Math.max(a, b - cmax + 1); i < b; i++) {
      for (let k = cmin; k <= cmax; k++) if (i + k > b && i + k <= N) addRow(edge, 0, w, charGramRow(norm, i, k, bits), -1);
    }
    const left = ' ' + norm.slice(a, a + cmax - 1);
    for (let k = cmin; k <= Math.min(cmax, left.length); k++) addRow(edge, 0, w, charGramRow(left, 0, k, bits), 1);
    const right = norm.slice(b - cmax + 1, b) + ' ';
    for (let k = cmin; k <= Math.min(cmax, right.length); k++) addRow(edge, 0, w, charGramRow(right, right.length - k, k, bits), 1);
    const m = b - a + 2;
    let nChar = 0;
    for (let k = cmin; k <= cmax; k++) nChar += Math.max(0, m - k + 1);
    const vc = cfg.charScale / Math.sqrt(Math.max(nChar, cfg.charFloor));

    // tokens wholly inside [a, b)
    while (ta < T && (ts[ta] ?? 0) < a) ta++;
    if (tb < ta) tb = ta;
    while (tb < T && (te[tb] ?? 0) <= b) tb++;
    const nt = Math.max(0, tb - ta);
    const nw = nt + Math.max(0, nt - 1);
    const vw = nw > 0 ? cfg.wordScale / Math.sqrt(Math.max(nw, cfg.wordFloor)) : 0;

    // lexicon features of the window's tokens
    let fired = 0;
    if (lexOn && nt > 0) {
      while (ga < nTagged && (tagged[ga] ?? 0) < ta) ga++;
      fired = windowLexicon(sc, tagged, ga, nTagged, ta, tb, lastA, lastB);
    }

    const ca = boundaryIndex(bnd, a) * 8;
    const cb = boundaryIndex(bnd, b) * 8;
    const ua = ta * L;
    const ub = Math.max(ta, tb) * L;
    const ba = Math.min(ta + 1, Math.max(ta, tb)) * L;
    const ne = words !== undefined ? (ec[Math.max(ta, tb)] ?? 0) - (ec[ta] ?? 0) : 0;
    const ke = ne > 0 && words !== undefined ? 1 / Math.max(ne, words.floor) : 0;
    for (let l = 0; l < L; l++) {
      const chars = (cp[cb + l] ?? 0) - (cp[ca + l] ?? 0) + (edge[l] ?? 0);
      const wordSum = (up[ub + l] ?? 0) - (up[ua + l] ?? 0) + (bp[ub + l] ?? 0) - (bp[ba + l] ?? 0);
      let lex = 0;
      if (fired !== 0) for (let f = 0; f < LEX_FEATURE_COUNT; f++) if (fired & (1 << f)) lex += tbl[lexBase + f * L + l] ?? 0;
      const emb = ke !== 0 ? ((ep[ub + l] ?? 0) - (ep[ua + l] ?? 0)) * ke : 0;
      zw[l] = (w.bias[l] ?? 0) + (w.scales[l] ?? 1) * (chars * vc + wordSum * vw + lex * cfg.lexScale) + emb;
    }
    applyStructure(zw, fired);
    for (let l = 0; l < L; l++) if ((zw[l] ?? 0) > (out[l] ?? -Infinity)) out[l] = zw[l] ?? 0;
  }
}
