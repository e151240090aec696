/** The weight table and scratch buffers the one-pass window scorer (window-scores.ts) reads and reuses. */
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
  embPre = new Float64Array(0);
  embCnt = new Int32Array(0);
  /** One window's logits. */
  window = new Float64Array(8);

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
      this.embPre = new Float64Array((c + 1) * L);
      this.embCnt = new Int32Array(c + 1);
    }
    if (this.edge.length < L) this.edge = new Float64Array(L);
  }
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