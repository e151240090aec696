/**
 * Hashed feature extraction: char n-grams (default 2..5) of the normalised text, word uni/bi-grams, and a few
 * lexicon indicator features (see lexicon.ts). Feature rows 0..2^bits-1 are hash buckets; rows 2^bits.. are the
 * LEX_FEATURE_COUNT lexicon features. All hashing is 32-bit FNV-1a + murmur3 finaliser: deterministic across runs,
 * platforms and processes.
 */
import { LEX_CLASSES, LEXICON, type LexClass } from './lexicon.js';

/** Bump when normalisation, hashing or lexicon semantics change: old model files are then rejected. */
export const FEATURE_VERSION = 2;

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
  charMin: 3,
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

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
export const CHAR_BASIS = FNV_OFFSET ^ 0x3c6ef372;
export const UNI_SALT = 0x2545f491;
export const BI_SALT = 0x6a09e667;

export function fmix(h0: number): number {
  let h = h0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Bucket of a char n-gram of length k whose FNV-1a state is h: one multiplicative hash (the high `bits` bits of
 * (h + k * c) * golden ratio), cheaper than a full finaliser on the hottest loop of the scorer (one per char and
 * n-gram order); the FNV product chain already mixes every char into the high bits.
 */
export function charBucket(h: number, k: number, bits: number): number {
  return Math.imul((h + Math.imul(k, 0x27d4eb2d)) | 0, 0x9e3779b1) >>> (32 - bits);
}

export function combine(a: number, b: number): number {
  return fmix(Math.imul(a, 0x9e3779b1) ^ b);
}

export function combine3(a: number, b: number, c: number): number {
  return fmix(combine(a, b) ^ Math.imul(c, 0x85ebca77) ^ 0x5bd1e995);
}

export function isWordCode(c: number): boolean {
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
  /** Token count of the last extracted text (its hashes are tokens[0..T)). */
  T = 0;
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

export const UNI_TAGS = new Map<number, number>();
export const BI_TAGS = new Map<number, number>();
export const TRI_TAGS = new Map<number, number>();

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
export const LEX_MEMBER = new Uint8Array(1 << 16);
for (const cls of LEX_CLASSES) {
  for (const phrase of LEXICON[cls]) {
    const { hashes, count } = tokenHashes(phrase.toLowerCase());
    for (let i = 0; i < count; i++) LEX_MEMBER[(hashes[i] ?? 0) & 0xffff] = 1;
  }
}

export const B = CLASS_BIT;
/** Conjunctions [classA, classB, window in tokens] -> lexicon feature 16+i. */
export const CONJ: ReadonlyArray<readonly [number, number, number]> = [
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
export const CONJ_BASE = LEX_CLASSES.length; // 16
export const NEG_TRIPLE_BASE = CONJ_BASE + CONJ.length; // 26..28: conj 0..2 with a negation/counter-speech marker nearby
export const COUNT_BASE = NEG_TRIPLE_BASE + 3; // 29..31: >=3 tokens of gore / violent / sexual
export const NEG_WINDOW = 8;

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
      if (k + 1 >= cmin) idx[n++] = charBucket(h, k + 1, cfg.bits);
    }
  }
  if (n > 0) {
    const v = cfg.charScale / Math.sqrt(Math.max(n, cfg.charFloor));
    val.fill(v, 0, n);
  }

  // --- words
  const { count: T } = tokenHashes(norm, buf.tokens);
  buf.T = T;
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

