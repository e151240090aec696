/**
 * Exact o200k_base token counts without tiktoken's WebAssembly: the same ranks (read from tiktoken's own o200k file),
 * the same pre-tokenizer pattern and the same byte-pair merge, over packed tables of ~4 MiB that the garbage collector
 * never traces. Leaf module (node built-ins only): the tokenizer worker imports it too.
 *
 * Why not tiktoken: its module and the o200k ranks take 50-70 MiB of resident memory in the thread that loads them
 * (docs/memory.md), so a gateway had to keep exact counts in a thread of their own, started on demand: one stream a
 * client stopped (billed on our count, the upstream never reported usage) or one transcoded Messages stream brought a
 * 60 s thread of ~65 MiB, and the gateway's resident set from ~130 to ~195 MiB. These tables are small enough for the
 * event loop, where short texts are now counted (src/pool/pool.ts); tests check every count against tiktoken.
 *
 * Tables: the token bytes in rank order, concatenated (1.4 MB), their offsets (0.8 MB), and an open-addressing hash of
 * byte strings to ranks (2 MiB). A lookup hashes the bytes (FNV-1a) and compares them with the token's bytes. They are
 * SharedArrayBuffers: the tokenizer thread is handed the event loop's (piscina's workerData, `o200k`) and counts from
 * the same memory, with nothing to load.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

/**
 * tiktoken's o200k pattern in JavaScript's dialect. Two things differ from the Rust regex it is written for:
 * - `\s` there is Unicode White_Space (it has U+0085, not U+FEFF); JavaScript's `\s` has U+FEFF and not U+0085, so the
 *   class is spelt out;
 * - the case-insensitive contractions `(?i:'s|'t|'re|'ve|'m|'ll|'d)` have no inline form before ES2025: their case
 *   variants are listed (Unicode case folding also matches U+017F, the long s, for `s`).
 */
const WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const CONTRACTION = "(?:'[sS\\u017f]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?";
const UPPER = '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]';
const LOWER = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]';
const PATTERN = [
  `[^\\r\\n\\p{L}\\p{N}]?${UPPER}*${LOWER}+${CONTRACTION}`,
  `[^\\r\\n\\p{L}\\p{N}]?${UPPER}+${LOWER}*${CONTRACTION}`,
  '\\p{N}{1,3}',
  ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n/]*`,
  `[${WS}]*[\\r\\n]+`,
  `[${WS}]+(?![^${WS}])`,
  `[${WS}]+`,
].join('|');

const NONE = 0x7fffffff;
const BASE64 = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
/** Pieces up to this many bytes merge by scanning for the lowest pair (as tiktoken does); longer ones through a heap. */
const SCAN_MAX = 96;

/** The packed tables, over SharedArrayBuffers (a structured clone shares them instead of copying). */
export interface O200kTables {
  bytes: Uint8Array;
  offsets: Uint32Array;
  slots: Int32Array;
}

function shared<T extends Uint8Array | Uint32Array | Int32Array>(make: (b: SharedArrayBuffer) => T, bytes: number): T {
  return make(new SharedArrayBuffer(bytes));
}

export class O200k {
  readonly #bytes: Uint8Array;
  /** Token r's bytes are #bytes[#offsets[r]..#offsets[r + 1]). */
  readonly #offsets: Uint32Array;
  /** rank + 1 per slot, 0 for an empty slot. */
  readonly #slots: Int32Array;
  readonly #mask: number;
  /** Bytes of the longest token (128 in o200k): a longer span has no rank. */
  readonly #longest: number;
  readonly #re = new RegExp(PATTERN, 'gu');
  readonly #utf8 = new TextEncoder();
  #scratch = new Uint8Array(1024);
  /** What merges countWithin() has left (Infinity for count()). */
  #budget = Infinity;
  /** #mergeScan's part starts and pair ranks. */
  readonly #starts = new Int32Array(SCAN_MAX + 1);
  readonly #ranks = new Int32Array(SCAN_MAX + 1);

  private constructor(tables: O200kTables) {
    this.#bytes = tables.bytes;
    this.#offsets = tables.offsets;
    this.#slots = tables.slots;
    this.#mask = tables.slots.length - 1;
    let longest = 0;
    for (let r = 0; r + 1 < tables.offsets.length; r++) longest = Math.max(longest, tables.offsets[r + 1]! - tables.offsets[r]!);
    this.#longest = longest;
  }

  /** Counts from tables another thread built (`tables`), without a copy. */
  static fromTables(tables: O200kTables): O200k {
    return new O200k(tables);
  }

  /** The tables, to hand to a worker thread. */
  get tables(): O200kTables {
    return { bytes: this.#bytes, offsets: this.#offsets, slots: this.#slots };
  }

  /**
   * Parses tiktoken's o200k_base file (JSON whose `bpe_ranks` is `! 0`, then the tokens in base64, in rank order,
   * space-separated) from its bytes, in two passes (sizes, then the tables): no string, array or Buffer per token, and
   * no JSON parse of the 3.6 MB file, whose transient heap stayed resident (+13 MiB against +4 now).
   */
  static load(path = createRequire(import.meta.url).resolve('tiktoken/encoders/o200k_base.json')): O200k {
    const file = readFileSync(path);
    const key = file.indexOf('"bpe_ranks":"! 0 ');
    if (key < 0) throw new Error(`${path}: no o200k ranks ("bpe_ranks" starting at rank 0)`);
    const from = key + '"bpe_ranks":"! 0 '.length;
    const to = file.indexOf(0x22, from); // the closing quote: base64 and spaces hold none
    if (to < 0) throw new Error(`${path}: unterminated bpe_ranks`);
    let tokens = 1;
    let sextets = 0;
    for (let i = from; i < to; i++) {
      const c = file[i]!;
      if (c === 0x20) tokens++;
      else if (c !== 0x3d) {
        if ((BASE64[c] ?? -1) < 0) throw new Error(`${path}: o200k ranks are not contiguous base64 tokens (byte ${i})`);
        sextets++;
      }
    }
    // Each token's base64 decodes on its own: floor(sextets * 6 / 8) bytes of it; the sum is at most this.
    const bytes = shared((b) => new Uint8Array(b), Math.floor((sextets * 6) / 8));
    const offsets = shared((b) => new Uint32Array(b), (tokens + 1) * 4);
    let at = 0;
    let rank = 0;
    let bits = 0;
    let acc = 0;
    for (let i = from; i < to; i++) {
      const c = file[i]!;
      if (c === 0x20) {
        offsets[++rank] = at;
        bits = acc = 0;
      } else if (c !== 0x3d) {
        acc = ((acc << 6) | BASE64[c]!) & 0xffff;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          bytes[at++] = (acc >> bits) & 0xff;
        }
      }
    }
    offsets[tokens] = at;
    let size = 1;
    while (size < tokens * 2.5) size <<= 1;
    const slots = shared((b) => new Int32Array(b), size * 4);
    for (let r = 0; r < tokens; r++) {
      let slot = fnv1a(bytes, offsets[r]!, offsets[r + 1]!) & (size - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      slots[slot] = r + 1;
    }
    return new O200k({ bytes: at === bytes.length ? bytes : bytes.subarray(0, at), offsets, slots });
  }

  /** Tokens in the vocabulary (o200k_base: 199,998 ranks, special tokens not counted). */
  get size(): number {
    return this.#offsets.length - 1;
  }

  /** The exact number of tokens tiktoken's `encode_ordinary` gives `text` (special tokens read as ordinary text). */
  count(text: string): number {
    this.#budget = Infinity;
    return this.#count(text);
  }

  /**
   * The count of `texts` (summed), or -1 as soon as their merges would cost more than `budget`: the sum, over the pieces
   * that are not whole tokens, of their length in bytes squared (a piece merges in time quadratic in its bytes: ~2.5 ns
   * times that). Ordinary prose costs a few thousand; a run of 1,000 letters or CJK without spaces millions. The event
   * loop counts with a budget, so a short text costs it tens of microseconds whatever it holds.
   */
  countWithin(texts: readonly string[], budget: number): number {
    this.#budget = budget;
    let n = 0;
    for (const t of texts) {
      const c = this.#count(t);
      if (c < 0) return -1;
      n += c;
    }
    return n;
  }

  #count(text: string): number {
    const re = this.#re;
    re.lastIndex = 0;
    let n = 0;
    // A lone surrogate is read as U+FFFD, as tiktoken reads it: both are neither letter, number nor space to the
    // pattern, and encodeInto writes U+FFFD's bytes for it.
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const piece = m[0];
      if (piece.length === 0) {
        re.lastIndex++;
        continue;
      }
      if (this.#scratch.length < piece.length * 3) this.#scratch = new Uint8Array(piece.length * 3 * 2);
      const len = this.#utf8.encodeInto(piece, this.#scratch).written;
      if (len === 1 || this.#rank(this.#scratch, 0, len) !== NONE) {
        n++;
        continue;
      }
      this.#budget -= len * len;
      if (this.#budget < 0) return -1;
      n += len <= SCAN_MAX ? this.#mergeScan(this.#scratch, len) : this.#mergeHeap(this.#scratch, len);
    }
    // A huge piece (a long text in the tokenizer thread) does not keep its buffer.
    if (this.#scratch.length > 65_536) this.#scratch = new Uint8Array(1024);
    return n;
  }

  /** The rank of b[from..to), or NONE. */
  #rank(b: Uint8Array, from: number, to: number): number {
    const len = to - from;
    if (len > this.#longest) return NONE;
    const bytes = this.#bytes;
    const offsets = this.#offsets;
    for (let at = fnv1a(b, from, to) & this.#mask; ; at = (at + 1) & this.#mask) {
      const slot = this.#slots[at]!;
      if (slot === 0) return NONE;
      const r = slot - 1;
      const start = offsets[r]!;
      if (offsets[r + 1]! - start !== len) continue;
      let i = 0;
      while (i < len && bytes[start + i] === b[from + i]) i++;
      if (i === len) return r;
    }
  }

  /**
   * tiktoken's `_byte_pair_merge`: part starts, and the rank of the pair that starts at each; the lowest rank merges
   * first, the leftmost of equal ones. Returns the parts left.
   */
  #mergeScan(b: Uint8Array, len: number): number {
    const starts = this.#starts;
    const ranks = this.#ranks;
    for (let i = 0; i <= len; i++) {
      starts[i] = i;
      ranks[i] = i + 1 < len ? this.#rank(b, i, i + 2) : NONE;
    }
    let parts = len + 1;
    for (;;) {
      let min = NONE;
      let at = -1;
      for (let i = 0; i < parts - 1; i++) {
        if (ranks[i]! < min) {
          min = ranks[i]!;
          at = i;
        }
      }
      if (at < 0) return parts - 1;
      if (at > 0) ranks[at - 1] = at + 2 < parts ? this.#rank(b, starts[at - 1]!, starts[at + 2]!) : NONE;
      ranks[at] = at + 3 < parts ? this.#rank(b, starts[at]!, starts[at + 3]!) : NONE;
      starts.copyWithin(at + 1, at + 2, parts);
      ranks.copyWithin(at + 1, at + 2, parts);
      parts--;
    }
  }

  /**
   * The same merges for a long piece, in O(n log n): the parts as a linked list, candidate pairs in a heap keyed by
   * (rank, start) so the lowest rank and then the leftmost comes first; a pair whose parts have changed since it was
   * pushed is skipped.
   */
  #mergeHeap(b: Uint8Array, len: number): number {
    const next = new Int32Array(len);
    const prev = new Int32Array(len);
    /** Generation of each part start: a pair pushed for an older generation is stale. */
    const gen = new Int32Array(len);
    const alive = new Uint8Array(len).fill(1);
    for (let i = 0; i < len; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    const heap = new MinHeap();
    const push = (i: number): void => {
      const j = next[i]!;
      if (j >= len) return;
      const r = this.#rank(b, i, next[j]!);
      if (r !== NONE) heap.push(r, i, gen[i]!, gen[j]!);
    };
    for (let i = 0; i + 1 < len; i++) push(i);
    let parts = len;
    while (heap.size > 0) {
      const [, i, gi, gj] = heap.pop();
      const j = next[i]!;
      if (!alive[i] || j >= len || gen[i] !== gi || gen[j] !== gj) continue;
      // Merge part j into part i.
      alive[j] = 0;
      next[i] = next[j]!;
      if (next[i]! < len) prev[next[i]!] = i;
      gen[i]!++;
      parts--;
      // The pair ending in part i and the one starting at it changed (gen[i] makes their old entries stale).
      if (prev[i]! >= 0) push(prev[i]!);
      push(i);
    }
    return parts;
  }
}

function fnv1a(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** A binary min-heap of (rank, start, generation of start, generation of the next part), ordered by rank then start. */
class MinHeap {
  #a: number[] = [];

  get size(): number {
    return this.#a.length / 4;
  }

  #less(x: number, y: number): boolean {
    const a = this.#a;
    return a[x * 4]! < a[y * 4]! || (a[x * 4] === a[y * 4] && a[x * 4 + 1]! < a[y * 4 + 1]!);
  }

  #swap(x: number, y: number): void {
    const a = this.#a;
    for (let k = 0; k < 4; k++) {
      const t = a[x * 4 + k]!;
      a[x * 4 + k] = a[y * 4 + k]!;
      a[y * 4 + k] = t;
    }
  }

  push(rank: number, start: number, g1: number, g2: number): void {
    this.#a.push(rank, start, g1, g2);
    for (let i = this.size - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!this.#less(i, p)) break;
      this.#swap(i, p);
      i = p;
    }
  }

  pop(): [number, number, number, number] {
    const a = this.#a;
    const top: [number, number, number, number] = [a[0]!, a[1]!, a[2]!, a[3]!];
    const last = this.size - 1;
    this.#swap(0, last);
    a.length -= 4;
    for (let i = 0; ; ) {
      const l = i * 2 + 1;
      const r = l + 1;
      let m = i;
      if (l < last && this.#less(l, m)) m = l;
      if (r < last && this.#less(r, m)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
    return top;
  }
}

let loaded: O200k | null = null;

/**
 * The process's o200k counter: in a worker thread handed the event loop's tables (workerData `o200k`), those; else
 * loaded on first use (~30-70 ms; the gateway loads them at start-up).
 */
export function o200k(): O200k {
  loaded ??= fromParent() ?? O200k.load();
  return loaded;
}

function fromParent(): O200k | null {
  const given: unknown = (workerData as { o200k?: unknown } | null)?.o200k;
  return typeof given === 'object' && given !== null ? O200k.fromTables(given as O200kTables) : null;
}

/** Exact o200k count of texts (summed), as tiktoken's `encode_ordinary` gives it. */
export function countO200k(texts: readonly string[]): number {
  const enc = o200k();
  let n = 0;
  for (const t of texts) n += enc.count(t);
  return n;
}
