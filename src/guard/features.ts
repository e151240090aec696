/**
 * Hashed feature extraction: char n-grams (default 2..5) of the normalised text, word uni/bi-grams, and a few
 * lexicon indicator features (see lexicon.ts). Feature rows 0..2^bits-1 are hash buckets; rows 2^bits.. are the
 * LEX_FEATURE_COUNT lexicon features. All hashing is 32-bit FNV-1a + murmur3 finaliser: deterministic across runs,
 * platforms and processes.
 */
import { LEX_CLASSES, LEXICON, type LexClass } from './lexicon.js';

/** Bump when normalisation, hashing or lexicon semantics change: old model files are then rejected. */
export const FEATURE_VERSION = 1;

export interface FeatureConfig {
  version: number;
  /** log2 of the number of hash buckets. */
  bits: number;
  charMin: number;
  charMax: number;
  /**
   * Each block (chars, words) is scaled by scale/sqrt(max(occurrences in the block, floor)): the floor keeps
   * very short inputs (a single word) from getting extreme feature values.
   */
  charScale: number;
  wordScale: number;
  /** Value of a firing lexicon indicator. */
  lexScale: number;
  charFloor: number;
  wordFloor: number;
}

export const DEFAULT_FEATURE_CONFIG: FeatureConfig = {
  version: FEATURE_VERSION,
  bits: 18,
  charMin: 2,
  charMax: 5,
  charScale: 1,
  wordScale: 1,
  lexScale: 0.5,
  charFloor: 80,
  wordFloor: 10,
};

export const LEX_FEATURE_COUNT = 32;

export function featureRows(cfg: FeatureConfig): number {
  return (1 << cfg.bits) + LEX_FEATURE_COUNT;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const CHAR_BASIS = FNV_OFFSET ^ 0x3c6ef372;
const UNI_SALT = 0x2545f491;
const BI_SALT = 0x6a09e667;

function fmix(h0: number): number {
  let h = h0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function combine(a: number, b: number): number {
  return fmix(Math.imul(a, 0x9e3779b1) ^ b);
}

function combine3(a: number, b: number, c: number): number {
  return fmix(combine(a, b) ^ Math.imul(c, 0x85ebca77) ^ 0x5bd1e995);
}

function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95;
  if (c < 0xc0 || c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false; // punctuation, symbols, arrows, box drawing
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK punctuation
  if (c >= 0xd800 && c <= 0xdfff) return false; // surrogates (emoji)
  if (c >= 0xfe00 && c <= 0xfe0f) return false; // variation selectors
  return true;
}

/** Scratch space reused across calls (each worker thread scores one text at a time). */
export class FeatureBuffer {
  idx: Int32Array;
  val: Float32Array;
  n = 0;
  tokens: Uint32Array;
  tags: Int32Array;
  negPrefix: Int32Array;

  constructor(capacity = 16384) {
    this.idx = new Int32Array(capacity);
    this.val = new Float32Array(capacity);
    this.tokens = new Uint32Array(capacity >> 2);
    this.tags = new Int32Array(capacity >> 2);
    this.negPrefix = new Int32Array((capacity >> 2) + 1);
  }

  ensure(textLen: number): void {
    const need = 6 * (textLen + 2) + LEX_FEATURE_COUNT + 16;
    if (need > this.idx.length) {
      const cap = Math.max(need, this.idx.length * 2);
      this.idx = new Int32Array(cap);
      this.val = new Float32Array(cap);
    }
    const tneed = textLen + 4;
    if (tneed > this.tokens.length) {
      const cap = Math.max(tneed, this.tokens.length * 2);
      this.tokens = new Uint32Array(cap);
      this.tags = new Int32Array(cap);
      this.negPrefix = new Int32Array(cap + 1);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lexicon tables: keys are token / bigram / trigram hashes computed exactly as in tokenize().

const CLASS_BIT: Record<LexClass, number> = Object.fromEntries(LEX_CLASSES.map((c, i) => [c, 1 << i])) as Record<LexClass, number>;

function hashToken(s: string, from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Token hashes of a string, with the same word-boundary rules as extraction. */
export function tokenHashes(s: string, out?: Uint32Array): { hashes: Uint32Array; count: number } {
  const hashes = out ?? new Uint32Array(s.length + 1);
  let count = 0;
  let start = -1;
  const len = s.length;
  for (let i = 0; i <= len; i++) {
    const c = i < len ? s.charCodeAt(i) : 32;
    let word = isWordCode(c);
    // apostrophe inside a word ("don't") stays part of it
    if (!word && c === 39 && start >= 0 && i + 1 < len && isWordCode(s.charCodeAt(i + 1))) word = true;
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      hashes[count++] = hashToken(s, start, i);
      start = -1;
    }
  }
  return { hashes, count };
}

const UNI_TAGS = new Map<number, number>();
const BI_TAGS = new Map<number, number>();
const TRI_TAGS = new Map<number, number>();

for (const cls of LEX_CLASSES) {
  const bit = CLASS_BIT[cls];
  for (const phrase of LEXICON[cls]) {
    const { hashes, count } = tokenHashes(phrase.toLowerCase());
    const a = hashes[0] ?? 0;
    const b = hashes[1] ?? 0;
    const c = hashes[2] ?? 0;
    let map: Map<number, number>;
    let key: number;
    if (count === 1) {
      map = UNI_TAGS;
      key = a;
    } else if (count === 2) {
      map = BI_TAGS;
      key = combine(a, b);
    } else if (count === 3) {
      map = TRI_TAGS;
      key = combine3(a, b, c);
    } else {
      continue;
    }
    map.set(key, (map.get(key) ?? 0) | bit);
  }
}

/** Tokens that occur in any lexicon phrase (by the low 16 bits of their hash): a token outside it tags nothing. */
const LEX_MEMBER = new Uint8Array(1 << 16);
for (const cls of LEX_CLASSES) {
  for (const phrase of LEXICON[cls]) {
    const { hashes, count } = tokenHashes(phrase.toLowerCase());
    for (let i = 0; i < count; i++) LEX_MEMBER[(hashes[i] ?? 0) & 0xffff] = 1;
  }
}

const B = CLASS_BIT;
/** Conjunctions [classA, classB, window in tokens] -> lexicon feature 16+i. */
const CONJ: ReadonlyArray<readonly [number, number, number]> = [
  [B.group, B.threat, 6], // 16
  [B.group, B.dehuman, 6], // 17
  [B.group, B.hateverb, 5], // 18
  [B.selfref, B.selfharm, 6], // 19
  [B.threat, B.reflexive, 3], // 20
  [B.minor, B.sexual, 10], // 21
  [B.gore, B.violent, 8], // 22
  [B.override, B.instr, 4], // 23
  [B.selfref, B.threat, 4], // 24
  [B.override, B.jailbreak | B.roleplay, 12], // 25
];
const CONJ_BASE = LEX_CLASSES.length; // 16
const NEG_TRIPLE_BASE = CONJ_BASE + CONJ.length; // 26..28: conj 0..2 with a negation/counter-speech marker nearby
const COUNT_BASE = NEG_TRIPLE_BASE + 3; // 29..31: >=3 tokens of gore / violent / sexual
const NEG_WINDOW = 8;

// ---------------------------------------------------------------------------------------------------------------

/**
 * Extract features of an already-normalised text into buf (idx/val pairs, duplicates allowed: values add).
 */
export function extractFeatures(cfg: FeatureConfig, norm: string, buf: FeatureBuffer): void {
  buf.ensure(norm.length);
  const mask = (1 << cfg.bits) - 1;
  const idx = buf.idx;
  const val = buf.val;
  let n = 0;

  // --- char n-grams over " text "
  const s = ' ' + norm + ' ';
  const len = s.length;
  const cmin = cfg.charMin;
  const cmax = cfg.charMax;
  for (let i = 0; i < len; i++) {
    let h = CHAR_BASIS;
    const kmax = Math.min(cmax, len - i);
    for (let k = 0; k < kmax; k++) {
      h = Math.imul(h ^ s.charCodeAt(i + k), FNV_PRIME);
      if (k + 1 >= cmin) idx[n++] = fmix(h ^ Math.imul(k + 1, 0x27d4eb2d)) & mask;
    }
  }
  if (n > 0) {
    const v = cfg.charScale / Math.sqrt(Math.max(n, cfg.charFloor));
    val.fill(v, 0, n);
  }

  // --- words
  const { count: T } = tokenHashes(norm, buf.tokens);
  const toks = buf.tokens;
  const wStart = n;
  let prev = 0;
  for (let t = 0; t < T; t++) {
    const h = toks[t] ?? 0;
    idx[n++] = fmix(h ^ UNI_SALT) & mask;
    if (t > 0) idx[n++] = fmix(combine(prev, h) ^ BI_SALT) & mask;
    prev = h;
  }
  const nw = n - wStart;
  if (nw > 0) val.fill(cfg.wordScale / Math.sqrt(Math.max(nw, cfg.wordFloor)), wStart, n);

  // --- lexicon
  if (T > 0 && cfg.lexScale !== 0) n = lexiconFeatures(cfg, buf, T, n);
  buf.n = n;
}

function lexiconFeatures(cfg: FeatureConfig, buf: FeatureBuffer, T: number, n0: number): number {
  const toks = buf.tokens;
  const tags = buf.tags;
  let any = 0;
  for (let t = 0; t < T; t++) {
    const h = toks[t] ?? 0;
    let m = UNI_TAGS.get(h) ?? 0;
    if (t > 0) {
      const hp = toks[t - 1] ?? 0;
      const bm = BI_TAGS.get(combine(hp, h));
      if (bm !== undefined) {
        m |= bm;
        tags[t - 1] = (tags[t - 1] ?? 0) | bm;
      }
      if (t > 1) {
        const tm = TRI_TAGS.get(combine3(toks[t - 2] ?? 0, hp, h));
        if (tm !== undefined) {
          m |= tm;
          tags[t - 1] = (tags[t - 1] ?? 0) | tm;
          tags[t - 2] = (tags[t - 2] ?? 0) | tm;
        }
      }
    }
    tags[t] = m;
    any |= m;
  }
  if (any === 0) return n0;

  let fired = 0; // bitmask over LEX_FEATURE_COUNT (32) features
  for (let c = 0; c < CONJ_BASE; c++) if (any & (1 << c)) fired |= 1 << c;

  // negation prefix counts for the triples
  const negBit = B.neg;
  const negPrefix = buf.negPrefix;
  negPrefix[0] = 0;
  for (let t = 0; t < T; t++) negPrefix[t + 1] = (negPrefix[t] ?? 0) + ((tags[t] ?? 0) & negBit ? 1 : 0);

  const last = new Int32Array(LEX_CLASSES.length).fill(-1_000_000);
  let gore = 0;
  let violent = 0;
  let sexual = 0;
  for (let t = 0; t < T; t++) {
    const m = tags[t] ?? 0;
    if (m === 0) continue;
    if (m & B.gore) gore++;
    if (m & B.violent) violent++;
    if (m & B.sexual) sexual++;
    for (let ci = 0; ci < CONJ.length; ci++) {
      const conj = CONJ[ci];
      if (conj === undefined) continue;
      const [a, b, w] = conj;
      let hit = (m & a) !== 0 && (m & b) !== 0;
      if (!hit && m & a) hit = lastWithin(last, b, t - w);
      if (!hit && m & b) hit = lastWithin(last, a, t - w);
      if (!hit) continue;
      fired |= 1 << (CONJ_BASE + ci);
      if (ci < 3) {
        const lo = Math.max(0, t - w - NEG_WINDOW);
        const hi = Math.min(T, t + NEG_WINDOW + 1);
        if ((negPrefix[hi] ?? 0) - (negPrefix[lo] ?? 0) > 0) fired |= 1 << (NEG_TRIPLE_BASE + ci);
      }
    }
    for (let c = 0; c < LEX_CLASSES.length; c++) if (m & (1 << c)) last[c] = t;
  }
  if (gore >= 3) fired |= 1 << COUNT_BASE;
  if (violent >= 3) fired |= 1 << (COUNT_BASE + 1);
  if (sexual >= 3) fired |= 1 << (COUNT_BASE + 2);

  const base = 1 << cfg.bits;
  let n = n0;
  for (let f = 0; f < LEX_FEATURE_COUNT; f++) {
    if (fired & (1 << f)) {
      buf.idx[n] = base + f;
      buf.val[n] = cfg.lexScale;
      n++;
    }
  }
  return n;
}

/** Was any class in `mask` last seen at or after token `from`? */
function lastWithin(last: Int32Array, mask: number, from: number): boolean {
  for (let c = 0; c < last.length; c++) if (mask & (1 << c) && (last[c] ?? -1_000_000) >= from) return true;
  return false;
}

/** Human-readable names of the lexicon features (for debugging / model inspection). */
export function lexFeatureNames(): string[] {
  const names: string[] = LEX_CLASSES.map((c) => `lex:${c}`);
  const nameOf = (mask: number): string =>
    LEX_CLASSES.filter((_c, i) => mask & (1 << i)).join('|');
  for (const [a, b] of CONJ) names.push(`conj:${nameOf(a)}*${nameOf(b)}`);
  for (let i = 0; i < 3; i++) names.push(`neg:${names[CONJ_BASE + i] ?? ''}`);
  names.push('count:gore>=3', 'count:violent>=3', 'count:sexual>=3');
  return names;
}

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

/** Weight table for scoring: row-major [row * L + label]; logit_l = bias_l + scale_l * sum(table * value). */
export interface WeightTable {
  /** L must be 8. */
  table: Int8Array | Float32Array;
  /** Optional copy of an integer table (|w| <= 127): row r's weights + 128 as bytes, labels 0-3 in word 2r, 4-7 in 2r+1. */
  packed?: Uint32Array;
  scales: ArrayLike<number>;
  bias: ArrayLike<number>;
  L: number;
}

/** Scratch for windowScores (grown as needed, reused across calls). */
export class WindowScratch {
  charPre = new Float64Array(0);
  tokStart = new Int32Array(0);
  tokEnd = new Int32Array(0);
  tokHash = new Uint32Array(0);
  uniPre = new Float64Array(0);
  biPre = new Float64Array(0);
  tags = new Int32Array(0);
  negPre = new Int32Array(0);
  tagged = new Int32Array(0);
  uniTag = new Int32Array(0);
  biTag = new Int32Array(0);
  triTag = new Int32Array(0);
  edge = new Float64Array(0);

  ensure(len: number, L: number): void {
    if (this.charPre.length < (len + 2) * L) this.charPre = new Float64Array(Math.max((len + 2) * L, this.charPre.length * 2));
    const tcap = len + 2;
    if (this.tokStart.length < tcap) {
      const c = Math.max(tcap, this.tokStart.length * 2);
      this.tokStart = new Int32Array(c);
      this.tokEnd = new Int32Array(c);
      this.tokHash = new Uint32Array(c);
      this.tags = new Int32Array(c);
      this.negPre = new Int32Array(c + 1);
      this.tagged = new Int32Array(c);
      this.uniTag = new Int32Array(c);
      this.biTag = new Int32Array(c);
      this.triTag = new Int32Array(c);
      this.uniPre = new Float64Array((c + 1) * L);
      this.biPre = new Float64Array((c + 1) * L);
    }
    if (this.edge.length < L) this.edge = new Float64Array(L);
  }
}

/** Rows summed in 16-bit lanes before unpacking: 4 char n-grams per position at most 255 each (biased). */
const FLUSH_ROWS = 240;

/** Lexicon tag of token t inside the window of tokens [ta, tb): only phrases wholly inside the window count. */
function localTag(sc: WindowScratch, t: number, ta: number, tb: number): number {
  let m = sc.uniTag[t] ?? 0;
  if (t - 1 >= ta) m |= sc.biTag[t] ?? 0;
  if (t + 1 < tb) m |= sc.biTag[t + 1] ?? 0;
  if (t - 2 >= ta) m |= sc.triTag[t] ?? 0;
  if (t - 1 >= ta && t + 1 < tb) m |= sc.triTag[t + 1] ?? 0;
  if (t + 2 < tb) m |= sc.triTag[t + 2] ?? 0;
  return m;
}

/** Is a negation-tagged token (window-local tags) in [lo, hi), within the window [ta, tb)? */
function negWithin(sc: WindowScratch, lo: number, hi: number, ta: number, tb: number): boolean {
  let n = (sc.negPre[hi] ?? 0) - (sc.negPre[lo] ?? 0);
  if (n === 0) return false;
  // the window's first and last two tokens may carry a global tag from a phrase cut by the window edge
  const fix = (t: number): void => {
    if (t >= lo && t < hi && (sc.tags[t] ?? 0) & B.neg && !(localTag(sc, t, ta, tb) & B.neg)) n--;
  };
  const headEnd = Math.min(ta + 2, tb);
  for (let t = ta; t < headEnd; t++) fix(t);
  for (let t = Math.max(tb - 2, headEnd); t < tb; t++) fix(t);
  return n > 0;
}

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

/** Pack an integer weight table (8 labels, values in [-127, 127]) for windowScores. */
export function packTable(q: Int8Array): Uint32Array {
  const rows = q.length >> 3;
  const out = new Uint32Array(rows * 2);
  for (let r = 0; r < rows; r++) {
    for (let h = 0; h < 2; h++) {
      let v = 0;
      for (let k = 0; k < 4; k++) v |= (((q[r * 8 + h * 4 + k] ?? 0) + 128) & 0xff) << (8 * k);
      out[r * 2 + h] = v >>> 0;
    }
  }
  return out;
}

function addRow(dst: Float64Array, d: number, w: WeightTable, row: number, sign: number): void {
  const L = w.L;
  const t = w.table;
  const b = row * L;
  for (let l = 0; l < L; l++) dst[d + l] = (dst[d + l] ?? 0) + sign * (t[b + l] ?? 0);
}

/** Hash bucket of the char n-gram s[from, from + k). */
function charGramRow(s: string, from: number, k: number, mask: number): number {
  let h = CHAR_BASIS;
  for (let i = from; i < from + k; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return fmix(h ^ Math.imul(k, 0x27d4eb2d)) & mask;
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
): void {
  const L = w.L;
  const N = norm.length;
  sc.ensure(N, L);
  const mask = (1 << cfg.bits) - 1;
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
      let h = CHAR_BASIS;
      const kmax = Math.min(cmax, N - i);
      for (let k = 0; k < kmax; k++) {
        h = Math.imul(h ^ norm.charCodeAt(i + k), FNV_PRIME);
        if (k + 1 >= cmin) {
          const r = (fmix(h ^ Math.imul(k + 1, 0x27d4eb2d)) & mask) << 1;
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
        if (k + 1 >= cmin) addRow(tot, 0, w, fmix(h ^ Math.imul(k + 1, 0x27d4eb2d)) & mask, 1);
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
  let ta = 0;
  let tb = 0;
  let ga = 0;
  for (const [a, b] of segs) {
    // char n-grams of ' ' + norm[a, b) + ' ': the prefix difference holds those starting in [a, b); take out the
    // ones running past b and add the ones on the virtual edge spaces
    edge.fill(0, 0, L);
    for (let i = Math.max(a, b - cmax + 1); i < b; i++) {
      for (let k = cmin; k <= cmax; k++) if (i + k > b && i + k <= N) addRow(edge, 0, w, charGramRow(norm, i, k, mask), -1);
    }
    const left = ' ' + norm.slice(a, a + cmax - 1);
    for (let k = cmin; k <= Math.min(cmax, left.length); k++) addRow(edge, 0, w, charGramRow(left, 0, k, mask), 1);
    const right = norm.slice(b - cmax + 1, b) + ' ';
    for (let k = cmin; k <= Math.min(cmax, right.length); k++) addRow(edge, 0, w, charGramRow(right, right.length - k, k, mask), 1);
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
      lastA.fill(-1_000_000);
      lastB.fill(-1_000_000);
      let gore = 0;
      let violent = 0;
      let sexual = 0;
      for (let g = ga; g < nTagged; g++) {
        const t = tagged[g] ?? 0;
        if (t >= tb) break;
        const mt = t - ta < 2 || tb - t <= 2 ? localTag(sc, t, ta, tb) : (tags[t] ?? 0);
        if (mt === 0) continue;
        fired |= mt & ((1 << CONJ_BASE) - 1);
        if (mt & B.gore) gore++;
        if (mt & B.violent) violent++;
        if (mt & B.sexual) sexual++;
        for (let ci = 0; ci < CONJ.length; ci++) {
          const conj = CONJ[ci];
          if (conj === undefined) continue;
          const [ca, cb, cw] = conj;
          const inA = (mt & ca) !== 0;
          const inB = (mt & cb) !== 0;
          if (!inA && !inB) continue;
          const hit = (inA && inB) || (inA && (lastB[ci] ?? 0) >= t - cw) || (inB && (lastA[ci] ?? 0) >= t - cw);
          if (inA) lastA[ci] = t;
          if (inB) lastB[ci] = t;
          if (!hit) continue;
          fired |= 1 << (CONJ_BASE + ci);
          if (ci < 3) {
            const nlo = Math.max(ta, t - cw - NEG_WINDOW);
            const nhi = Math.min(tb, t + NEG_WINDOW + 1);
            if (negWithin(sc, nlo, nhi, ta, tb)) fired |= 1 << (NEG_TRIPLE_BASE + ci);
          }
        }
      }
      if (gore >= 3) fired |= 1 << COUNT_BASE;
      if (violent >= 3) fired |= 1 << (COUNT_BASE + 1);
      if (sexual >= 3) fired |= 1 << (COUNT_BASE + 2);
    }

    const ca = boundaryIndex(bnd, a) * 8;
    const cb = boundaryIndex(bnd, b) * 8;
    const ua = ta * L;
    const ub = Math.max(ta, tb) * L;
    const ba = Math.min(ta + 1, Math.max(ta, tb)) * L;
    for (let l = 0; l < L; l++) {
      const chars = (cp[cb + l] ?? 0) - (cp[ca + l] ?? 0) + (edge[l] ?? 0);
      const words = (up[ub + l] ?? 0) - (up[ua + l] ?? 0) + (bp[ub + l] ?? 0) - (bp[ba + l] ?? 0);
      let lex = 0;
      if (fired !== 0) for (let f = 0; f < LEX_FEATURE_COUNT; f++) if (fired & (1 << f)) lex += tbl[lexBase + f * L + l] ?? 0;
      const z = (w.bias[l] ?? 0) + (w.scales[l] ?? 1) * (chars * vc + words * vw + lex * cfg.lexScale);
      if (z > (out[l] ?? -Infinity)) out[l] = z;
    }
  }
}
