/**
 * The char n-gram phase of the window scorer (window-scores.ts): every char 3-5-gram's weight row summed into prefix
 * sums at the sorted window boundaries, plus the small helpers the edge corrections share (a row added to a lane
 * vector, one n-gram's bucket, a boundary's index).
 */
import { CHAR_BASIS, charBucket, FNV_PRIME, type FeatureConfig } from './features.js';
import type { WeightTable, WindowScratch } from './window-table.js';

const K3 = Math.imul(3, 0x27d4eb2d);
const K4 = Math.imul(4, 0x27d4eb2d);
const K5 = Math.imul(5, 0x27d4eb2d);

/** Rows summed in 16-bit lanes before unpacking: each row adds at most 255 (a biased byte) to a lane. */
const FLUSH_ROWS = 240;

/** Sort a[0..n) ascending (insertion sort: the window boundaries arrive almost sorted). */
export function sortPrefix(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const x = a[i] ?? 0;
    let k = i - 1;
    while (k >= 0 && (a[k] ?? 0) > x) {
      a[k + 1] = a[k] ?? 0;
      k--;
    }
    a[k + 1] = x;
  }
}

/**
 * Row word offsets (bucket * 2, for the 32-bit view of the table) of the char n-grams of orders cmin..cmax starting
 * at each position 0..full-1, into ri[p * orders + (k - cmin)]. Returns the number written.
 */
function charRows(norm: string, full: number, cmin: number, cmax: number, bits: number, ri: Int32Array): number {
  const sh = 32 - bits;
  if (cmin === 3 && cmax === 5) {
    // the default orders unrolled, the five chars kept in registers (one charCodeAt per position)
    const k3 = Math.imul(3, 0x27d4eb2d);
    const k4 = Math.imul(4, 0x27d4eb2d);
    const k5 = Math.imul(5, 0x27d4eb2d);
    if (full <= 0) return 0;
    let c0 = norm.charCodeAt(0);
    let c1 = norm.charCodeAt(1);
    let c2 = norm.charCodeAt(2);
    let c3 = norm.charCodeAt(3);
    let p = 0;
    for (let i = 0; i < full; i++) {
      const c4 = norm.charCodeAt(i + 4);
      const h2 = Math.imul(Math.imul(CHAR_BASIS ^ c0, FNV_PRIME) ^ c1, FNV_PRIME);
      const h3 = Math.imul(h2 ^ c2, FNV_PRIME);
      const h4 = Math.imul(h3 ^ c3, FNV_PRIME);
      const h5 = Math.imul(h4 ^ c4, FNV_PRIME);
      // charBucket(h, k, bits) << 1
      ri[p] = (Math.imul((h3 + k3) | 0, 0x9e3779b1) >>> sh) << 1;
      ri[p + 1] = (Math.imul((h4 + k4) | 0, 0x9e3779b1) >>> sh) << 1;
      ri[p + 2] = (Math.imul((h5 + k5) | 0, 0x9e3779b1) >>> sh) << 1;
      p += 3;
      c0 = c1;
      c1 = c2;
      c2 = c3;
      c3 = c4;
    }
    return p;
  }
  let p = 0;
  for (let i = 0; i < full; i++) {
    let h = CHAR_BASIS;
    for (let k = 0; k < cmax; k++) {
      h = Math.imul(h ^ norm.charCodeAt(i + k), FNV_PRIME);
      if (k + 1 >= cmin) ri[p++] = charBucket(h, k + 1, bits) << 1;
    }
  }
  return p;
}

/** Index of x in the sorted array bnd (x is present). */
export function boundaryIndex(bnd: Int32Array, x: number, n: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bnd[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


export function addRow(dst: Float64Array, d: number, w: WeightTable, row: number, sign: number): void {
  const L = w.L;
  const t = w.table;
  const b = row * L;
  for (let l = 0; l < L; l++) dst[d + l] = (dst[d + l] ?? 0) + sign * (t[b + l] ?? 0);
}

/** Hash bucket of the char n-gram s[from, from + k). */
export function charGramRow(s: string, from: number, k: number, bits: number): number {
  let h = CHAR_BASIS;
  for (let i = from; i < from + k; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return charBucket(h, k, bits);
}

/** Char n-gram prefix sums at the sorted window boundaries (sc.bnd[0..nb), sc.charPre); returns nb. */
export function charPrefix(cfg: FeatureConfig, norm: string, segs: ReadonlyArray<readonly [number, number]>, w: WeightTable, sc: WindowScratch): number {
  const N = norm.length;
  const bits = cfg.bits;
  const cmin = cfg.charMin;
  const cmax = cfg.charMax;
  // --- char n-grams of norm. charPre[j*8 + l] = weight sum of the n-grams starting before bnd[j], for the sorted
  // window boundaries bnd (only those prefix values are needed). Integer (q8) tables are read as 32-bit words (a
  // row's 8 weights are two words; x ^ 0x80 turns an int8 byte into the biased byte x + 128), summed two 16-bit lanes
  // per add and unpacked at every boundary and every FLUSH_ROWS rows: integer sums, so exact in any order.
  const nb = segs.length * 2;
  if (sc.bnd.length < nb) sc.bnd = new Int32Array(Math.max(nb, sc.bnd.length * 2));
  const bnd = sc.bnd;
  let nbFill = 0;
  for (const [a, b] of segs) {
    bnd[nbFill++] = a;
    bnd[nbFill++] = b;
  }
  sortPrefix(bnd, nb);
  if (sc.charPre.length < (nb + 1) * 8) sc.charPre = new Float64Array(Math.max((nb + 1) * 8, sc.charPre.length * 2));
  const cp = sc.charPre;
  const tot = sc.edge;
  tot.fill(0, 0, 8);
  const u32 = w.words32;
  if (u32 !== undefined) {
    const ri = sc.rowIdx;
    // rows of the n-grams starting at each position, flattened: (N - cmax + 1) full positions x orders
    const orders = cmax - cmin + 1;
    const full = Math.max(0, N - cmax + 1);
    // the default orders 3..5 are hashed in the gather loop; other orders first into ri
    const fast = cmin === 3 && cmax === 5;
    if (!fast) charRows(norm, full, cmin, cmax, bits, ri);
    const sh = 32 - bits;
    let c0 = norm.charCodeAt(0), c1 = norm.charCodeAt(1), c2 = norm.charCodeAt(2), c3 = norm.charCodeAt(3);
    const flushPositions = Math.max(1, Math.floor(FLUSH_ROWS / orders));
    let e0 = 0, o0 = 0, e1 = 0, o1 = 0, cnt = 0;
    let j = 0;
    let i = 0;
    for (;;) {
      while (j < nb && bnd[j] === i) {
        const d = j << 3;
        cp[d] = tot[0] ?? 0; cp[d + 1] = tot[1] ?? 0; cp[d + 2] = tot[2] ?? 0; cp[d + 3] = tot[3] ?? 0;
        cp[d + 4] = tot[4] ?? 0; cp[d + 5] = tot[5] ?? 0; cp[d + 6] = tot[6] ?? 0; cp[d + 7] = tot[7] ?? 0;
        j++;
      }
      if (i >= N) break;
      const next = j < nb ? (bnd[j] ?? N) : N;
      const stop = Math.min(next, i + flushPositions);
      // full positions: their rows are ri[i*orders, stop*orders)
      const fe = Math.min(stop, full);
      if (i < fe && fast) {
        // the default 3..5-gram orders: hashed here, the five chars rolled in registers (one charCodeAt per position)
        for (let q = i; q < fe; q++) {
          const c4 = norm.charCodeAt(q + 4);
          const h2 = Math.imul(Math.imul(CHAR_BASIS ^ c0, FNV_PRIME) ^ c1, FNV_PRIME);
          const h3 = Math.imul(h2 ^ c2, FNV_PRIME);
          const h4 = Math.imul(h3 ^ c3, FNV_PRIME);
          const h5 = Math.imul(h4 ^ c4, FNV_PRIME);
          c0 = c1; c1 = c2; c2 = c3; c3 = c4;
          // charBucket(h, k, bits) << 1
          const r3 = (Math.imul((h3 + K3) | 0, 0x9e3779b1) >>> sh) << 1;
          const r4 = (Math.imul((h4 + K4) | 0, 0x9e3779b1) >>> sh) << 1;
          const r5 = (Math.imul((h5 + K5) | 0, 0x9e3779b1) >>> sh) << 1;
          const a0 = (u32[r3] ?? 0) ^ 0x80808080, a1 = (u32[r3 + 1] ?? 0) ^ 0x80808080;
          const b0 = (u32[r4] ?? 0) ^ 0x80808080, b1 = (u32[r4 + 1] ?? 0) ^ 0x80808080;
          const d0 = (u32[r5] ?? 0) ^ 0x80808080, d1 = (u32[r5 + 1] ?? 0) ^ 0x80808080;
          e0 += (a0 & 0x00ff00ff) + (b0 & 0x00ff00ff) + (d0 & 0x00ff00ff);
          o0 += ((a0 >>> 8) & 0x00ff00ff) + ((b0 >>> 8) & 0x00ff00ff) + ((d0 >>> 8) & 0x00ff00ff);
          e1 += (a1 & 0x00ff00ff) + (b1 & 0x00ff00ff) + (d1 & 0x00ff00ff);
          o1 += ((a1 >>> 8) & 0x00ff00ff) + ((b1 >>> 8) & 0x00ff00ff) + ((d1 >>> 8) & 0x00ff00ff);
        }
        cnt += (fe - i) * 3;
      } else if (i < fe) {
        const pe = fe * orders;
        for (let p = i * orders; p < pe; p++) {
          const r = ri[p] ?? 0;
          const w0 = (u32[r] ?? 0) ^ 0x80808080;
          const w1 = (u32[r + 1] ?? 0) ^ 0x80808080;
          e0 += w0 & 0x00ff00ff; o0 += (w0 >>> 8) & 0x00ff00ff;
          e1 += w1 & 0x00ff00ff; o1 += (w1 >>> 8) & 0x00ff00ff;
        }
        cnt += (fe - i) * orders;
      }
      // the last cmax - 1 positions: fewer orders fit
      for (let q = Math.max(i, full); q < stop; q++) {
        let h = CHAR_BASIS;
        const kmax = Math.min(cmax, N - q);
        for (let k = 0; k < kmax; k++) {
          h = Math.imul(h ^ norm.charCodeAt(q + k), FNV_PRIME);
          if (k + 1 >= cmin) {
            const r = charBucket(h, k + 1, bits) << 1;
            const w0 = (u32[r] ?? 0) ^ 0x80808080;
            const w1 = (u32[r + 1] ?? 0) ^ 0x80808080;
            e0 += w0 & 0x00ff00ff; o0 += (w0 >>> 8) & 0x00ff00ff;
            e1 += w1 & 0x00ff00ff; o1 += (w1 >>> 8) & 0x00ff00ff;
            cnt++;
          }
        }
      }
      const bias = 128 * cnt;
      tot[0] = (tot[0] ?? 0) + ((e0 & 0xffff) - bias); tot[2] = (tot[2] ?? 0) + ((e0 >>> 16) - bias);
      tot[1] = (tot[1] ?? 0) + ((o0 & 0xffff) - bias); tot[3] = (tot[3] ?? 0) + ((o0 >>> 16) - bias);
      tot[4] = (tot[4] ?? 0) + ((e1 & 0xffff) - bias); tot[6] = (tot[6] ?? 0) + ((e1 >>> 16) - bias);
      tot[5] = (tot[5] ?? 0) + ((o1 & 0xffff) - bias); tot[7] = (tot[7] ?? 0) + ((o1 >>> 16) - bias);
      e0 = 0; o0 = 0; e1 = 0; o1 = 0; cnt = 0;
      i = stop;
    }
  } else {
    let j = 0;
    for (let i = 0; i <= N; i++) {
      while (j < nb && bnd[j] === i) {
        for (let l = 0; l < 8; l++) cp[j * 8 + l] = tot[l] ?? 0;
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

  return nb;
}
