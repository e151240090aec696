/**
 * The lexicon features of one window of the one-pass scorer (window-scores.ts): the tags of the window's tokens,
 * computed so that a phrase cut by the window edge tags only its inside tokens, their conjunctions within a
 * token distance (and whether a negation sits near one), and the class counts. Returns the fired feature bits.
 */
import { B, CONJ, CONJ_BASE, COUNT_BASE, NEG_TRIPLE_BASE, NEG_WINDOW } from './features.js';
import type { WindowScratch } from './window-table.js';

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

/**
 * Fired lexicon feature bits of the window of tokens [ta, tb); `tagged[from..count)` are the text's tagged token
 * indices from the window's first one on. lastA / lastB are per-conjunction scratch.
 */
export function windowLexicon(
  sc: WindowScratch,
  tagged: ArrayLike<number>,
  from: number,
  count: number,
  ta: number,
  tb: number,
  lastA: Int32Array,
  lastB: Int32Array,
): number {
  const tags = sc.tags;
  let fired = 0;
  lastA.fill(-1_000_000);
  lastB.fill(-1_000_000);
  let gore = 0;
  let violent = 0;
  let sexual = 0;
  for (let g = from; g < count; g++) {
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
  return fired;
}
