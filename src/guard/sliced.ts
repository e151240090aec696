/**
 * A long text's guardrail scores computed a piece at a time, so the event loop can score a pasted document without
 * holding every other request for the whole of it (src/pool/sliced-scorer.ts drives the steps between I/O).
 *
 * A text longer than the model's whole-text bound is scored as the max over its windows (model.ts WindowConfig), and
 * a window's logits depend only on its own characters and on where its tokens start and end. So the windows are
 * taken in groups whose span is at most `sliceChars`, and each group is scored in one pass (windowScores) over its
 * span plus CONTEXT characters on either side: enough that every token and character n-gram touching a window's
 * edge reads as it does in the whole text. The max over the groups is the max over all windows, the value
 * model.ts `logitsOf` computes in one pass (test/unit/guard/sliced.test.ts compares the two).
 */
import { logitsOf, mentionHead, scoresOfLogits, scoringSegments, weightTable, type GuardModel, type GuardScores } from './model.js';
import { normalizeText } from './normalize.js';
import { quotedMention } from './mention.js';
import { windowScores } from './window-scores.js';
import { WindowScratch } from './window-table.js';

/**
 * Characters read on each side of a group beyond its windows. A window's edge reads the character before it (is a
 * token starting there?) and the character n-grams around it (at most charMax, 5, long); 64 leaves room to spare.
 */
const CONTEXT = 64;

const scratch = new WindowScratch();

/**
 * The logits `logitsOf(model, text)` gives, one group of windows per step: the generator yields between groups and
 * returns the logits. A text scored whole (up to the model's whole-text bound) is one step.
 */
export function* logitsInSteps(model: GuardModel, text: string, sliceChars: number): Generator<void, Float64Array, void> {
  const L = model.labels.length;
  const norm = normalizeText(text);
  const segs = scoringSegments(norm.length, model.window);
  const minWin = 2 * model.features.charMax;
  if (segs.length === 1 || L !== 8 || !segs.every(([a, b]) => b - a >= minWin)) return logitsOf(model, text);
  const table = weightTable(model);
  const best = new Float64Array(L).fill(-Infinity);
  const part = new Float64Array(L);
  let i = 0;
  while (i < segs.length) {
    const first = segs[i]![0];
    let j = i + 1;
    while (j < segs.length && segs[j]![1] - first <= sliceChars) j++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(norm.length, segs[j - 1]![1] + CONTEXT);
    const local: Array<[number, number]> = [];
    for (let s = i; s < j; s++) local.push([segs[s]![0] - from, segs[s]![1] - from]);
    windowScores(model.features, norm.slice(from, to), local, table, part, scratch, model.words);
    for (let l = 0; l < L; l++) if ((part[l] ?? 0) > (best[l] ?? 0)) best[l] = part[l] ?? 0;
    i = j;
    if (i < segs.length) yield;
  }
  return best;
}

/** The scores `scoreText(model, text)` gives (the quoted-mention pass included), in steps of about `sliceChars`. */
export function* scoreInSteps(model: GuardModel, text: string, sliceChars: number): Generator<void, GuardScores, void> {
  const best = yield* logitsInSteps(model, text, sliceChars);
  const pi = mentionHead(model, best);
  const masked = pi >= 0 ? quotedMention(text) : null;
  if (masked !== null) {
    yield;
    const again = yield* logitsInSteps(model, masked, sliceChars);
    best[pi] = Math.min(best[pi] ?? 0, again[pi] ?? 0);
  }
  return scoresOfLogits(model, best);
}

/** Runs steps to their end at once (a warm-up, a test); returns the value. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}
