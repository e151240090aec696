/** Binary-classification metrics used by training (threshold choice) and evaluation. */

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export function confusionAt(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold: number): Confusion {
  const c: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < scores.length; i++) {
    const pos = (scores[i] ?? 0) >= threshold;
    const y = labels[i] === 1;
    if (pos && y) c.tp++;
    else if (pos) c.fp++;
    else if (y) c.fn++;
    else c.tn++;
  }
  return c;
}

export function precision(c: Confusion): number {
  return c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
}

export function recall(c: Confusion): number {
  return c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
}

export function f1(c: Confusion): number {
  const p = precision(c);
  const r = recall(c);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** Area under the ROC curve (ties count half). NaN when one class is absent. */
export function auroc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0));
  let pos = 0;
  let rankSumPos = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    const s = scores[order[i] ?? 0] ?? 0;
    while (j + 1 < n && (scores[order[j + 1] ?? 0] ?? 0) === s) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (labels[order[k] ?? 0] === 1) {
        pos++;
        rankSumPos += avgRank;
      }
    }
    i = j + 1;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) return NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * Threshold maximising F1 on the given rows. With `balanced`, positives and negatives are re-weighted to equal
 * total mass (F1 at 50 % prevalence), making the choice independent of the class mix. Returns the midpoint
 * between the chosen cut score and the next lower score.
 */
export function bestF1Threshold(
  scores: ArrayLike<number>,
  labels: ArrayLike<number>,
  opts: { balanced?: boolean; weights?: ArrayLike<number> } = {},
): { threshold: number; f1: number } {
  const n = scores.length;
  const weights = opts.weights;
  let posMass = 0;
  let negMass = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? (weights[i] ?? 1) : 1;
    if (labels[i] === 1) posMass += w;
    else negMass += w;
  }
  if (posMass === 0 || negMass === 0) return { threshold: 0.5, f1: 0 };
  const posNorm = opts.balanced ? posMass : 1;
  const negNorm = opts.balanced ? negMass : 1;
  const totalPos = posMass / posNorm;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
  let tp = 0;
  let fp = 0;
  let best = { threshold: 1, f1: 0 };
  for (let k = 0; k < n; k++) {
    const i = order[k] ?? 0;
    const w = weights ? (weights[i] ?? 1) : 1;
    if (labels[i] === 1) tp += w / posNorm;
    else fp += w / negNorm;
    const s = scores[i] ?? 0;
    const next = k + 1 < n ? (scores[order[k + 1] ?? 0] ?? 0) : 0;
    if (next === s) continue; // only cut between distinct scores
    const p = tp / (tp + fp);
    const r = tp / totalPos;
    const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    if (f > best.f1) best = { threshold: (s + next) / 2, f1: f };
  }
  return best;
}

/** Wilson 95 % interval for a proportion k/n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const m = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, (c - m) / d), Math.min(1, (c + m) / d)];
}

export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

/**
 * Lowest cut whose precision (balanced: positives and negatives re-weighted to equal mass) is still at least
 * `target`: a blocking gateway favours precision, since a false positive refuses a legitimate request.
 * Returns null when no cut reaches the target.
 */
export function precisionThreshold(scores: ArrayLike<number>, labels: ArrayLike<number>, target: number): number | null {
  const n = scores.length;
  let pos = 0;
  for (let i = 0; i < n; i++) if (labels[i] === 1) pos++;
  const neg = n - pos;
  if (pos === 0 || neg === 0) return null;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
  let tp = 0;
  let fp = 0;
  let cut: number | null = null;
  for (let k = 0; k < n; k++) {
    const i = order[k] ?? 0;
    if (labels[i] === 1) tp += 1 / pos;
    else fp += 1 / neg;
    const s = scores[i] ?? 0;
    const next = k + 1 < n ? (scores[order[k + 1] ?? 0] ?? 0) : 0;
    if (next === s) continue;
    if (tp / (tp + fp) >= target) cut = (s + next) / 2;
  }
  return cut;
}

/**
 * Area under the precision-recall curve as average precision (sum over positives of precision at their rank;
 * tied scores are taken as one block). NaN without positives.
 */
export function auprc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const n = scores.length;
  const order = Array.from({ length: n }, (_v, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
  let P = 0;
  for (let i = 0; i < n; i++) if (labels[i] === 1) P++;
  if (P === 0) return NaN;
  let tp = 0;
  let seen = 0;
  let ap = 0;
  for (let i = 0; i < n; ) {
    const s = scores[order[i] ?? 0] ?? 0;
    let blockTp = 0;
    let j = i;
    while (j < n && (scores[order[j] ?? 0] ?? 0) === s) {
      if (labels[order[j] ?? 0] === 1) blockTp++;
      j++;
    }
    tp += blockTp;
    seen += j - i;
    ap += (blockTp / P) * (tp / seen);
    i = j;
  }
  return ap;
}

/**
 * Lowest threshold at which at most `maxFpr` of the negative scores reach it (scores >= threshold are flagged):
 * the smallest cut strictly above the k-th highest negative score, k = floor(maxFpr * negatives). 1 without room.
 */
export function fprThreshold(negativeScores: ArrayLike<number>, maxFpr: number): number {
  const s = Array.from(negativeScores).sort((a, b) => b - a);
  if (s.length === 0) return 0;
  const k = Math.floor(maxFpr * s.length);
  // flagged = #(s >= t) must be <= k: t just above s[k] (ties at s[k] are not flagged)
  const v = s[k] ?? 0;
  return Math.min(1, v + Math.max(1e-6, Math.abs(v) * 1e-6));
}
