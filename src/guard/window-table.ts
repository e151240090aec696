/** The weight table and scratch buffers the one-pass window scorer (window-scores.ts) reads and reuses. */
/** Weight table for scoring: row-major [row * L + label]; logit_l = bias_l + scale_l * sum(table * value). */
export interface WeightTable {
  /** L must be 8. */
  table: Int8Array | Float32Array;
  /**
   * For an Int8Array table on a little-endian machine: a 32-bit view of the same bytes (row r's labels 0-3 in word
   * 2r, 4-7 in 2r + 1; x ^ 0x80808080 gives the four weights + 128 as bytes). No copy of the table.
   */
  words32?: Uint32Array;
  scales: ArrayLike<number>;
  bias: ArrayLike<number>;
  L: number;
  /** The model's sub-category rule offsets (GuardModel.structureOffsets). */
  structureOffsets?: ArrayLike<number>;
}

/** Scratch for windowScores (grown as needed, reused across calls). */
export class WindowScratch {
  charPre = new Float64Array(0);
  tokStart = new Int32Array(0);
  tokEnd = new Int32Array(0);
  tokHash = new Uint32Array(0);
  /** Per window: its first token and the token after its last (window-scores.ts). */
  winTa = new Int32Array(0);
  winTb = new Int32Array(0);
  /** Sorted distinct token indices where word sums are read, and the sums there (8 per point). */
  pts = new Int32Array(0);
  ptUni = new Float64Array(0);
  ptBi = new Float64Array(0);
  ptEmb = new Float64Array(0);
  ptEmbN = new Int32Array(0);
  /** Sorted window boundaries. */
  bnd = new Int32Array(0);
  /** Char n-gram row offsets per position (window-scores.ts charRows). */
  rowIdx = new Int32Array(0);
  /** Per-conjunction scratch of windowLexicon. */
  lastA = new Int32Array(16);
  lastB = new Int32Array(16);
  tags = new Int32Array(0);
  negPre = new Int32Array(0);
  tagged = new Int32Array(0);
  uniTag = new Int32Array(0);
  biTag = new Int32Array(0);
  triTag = new Int32Array(0);
  edge = new Float64Array(0);
  /** One window's logits. */
  window = new Float64Array(8);

  /**
   * Room for a text of len UTF-16 units: charRows n-gram row offsets, and tokens (at most one per two units: tokens
   * are separated by a non-word unit), and nseg windows.
   */
  ensure(len: number, L: number, charRows: number, nseg: number): void {
    if (this.winTa.length < nseg) {
      const c = Math.max(nseg, this.winTa.length * 2);
      this.winTa = new Int32Array(c);
      this.winTb = new Int32Array(c);
      this.pts = new Int32Array(3 * c);
      this.ptUni = new Float64Array(3 * c * L);
      this.ptBi = new Float64Array(3 * c * L);
      this.ptEmb = new Float64Array(3 * c * L);
      this.ptEmbN = new Int32Array(3 * c);
    }
    if (this.rowIdx.length < charRows) this.rowIdx = new Int32Array(Math.max(charRows, this.rowIdx.length * 2));
    const tcap = (len >> 1) + 3;
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
    }
    if (this.edge.length < L) this.edge = new Float64Array(L);
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** The 32-bit view of an int8 table for windowScores (undefined on a big-endian machine: byte order differs). */
export function words32View(q: Int8Array): Uint32Array | undefined {
  if (!LITTLE_ENDIAN || q.byteOffset % 4 !== 0 || q.length % 8 !== 0) return undefined;
  return new Uint32Array(q.buffer, q.byteOffset, q.length >> 2);
}
