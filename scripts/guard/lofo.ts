/**
 * Leave-one-family-out generalisation check for the prompt-injection head (`train.js --lofo`).
 *
 * Our generated attacks share one author's phrasing, so the validation split (which holds out templates, not
 * techniques) overstates what the head catches on attacks written by someone else. Here every generated attack
 * row of one technique (all its templates, from every generator, on both sides of the split) is removed from
 * training; the head is retrained on the rest (prompt injection only, same options), its threshold is chosen by
 * the shipped rule on the validation split without that technique, and the report is the share of the held-out
 * technique's rows that reach the threshold. The mean over techniques is the number to improve. Each run trains
 * LOFO_EPOCHS epochs instead of the shipped 10 (about 20 techniques must fit in a few minutes on a shared machine):
 * the figures compare data and feature changes with each other, not with the shipped model's validation recall.
 */
import { GUARD_LABELS } from '../../src/guard/labels.js';
import { quantizeWeights, type GuardModel } from '../../src/guard/model.js';
import { prepareFeatures, trainModel, type LabelValue, type TrainOptions } from '../../src/guard/train.js';
import type { SourcedExample } from './data.js';

const PI = GUARD_LABELS.indexOf('prompt_injection');
const LOFO_EPOCHS = 4;

/** Technique of a generated attack row (group `gen-<kind>:<technique>:<template>`), null for anything else. */
export function attackTechnique(e: SourcedExample): string | null {
  if (e.y[PI] !== 1) return null;
  const m = /^gen-[a-z]+:([a-z_]+):/.exec(e.group);
  return m?.[1] ?? null;
}

export interface FamilyRecall {
  technique: string;
  rows: number;
  threshold: number;
  recall: number;
  /** Recall on the held-out technique's rows of scripts/guard/attacks.ts only (comparable across generator changes). */
  recallAttacks: number;
}

/** Injection-only copy of a row (other heads unknown), so a LOFO run trains one head. */
function injectionOnly(e: SourcedExample): SourcedExample {
  const y = new Array<LabelValue>(GUARD_LABELS.length).fill(null);
  y[PI] = e.y[PI] ?? null;
  return { ...e, y };
}

export function leaveOneFamilyOut(
  train: readonly SourcedExample[],
  tune: readonly SourcedExample[],
  opts: TrainOptions,
  threshold: (model: GuardModel, tune: SourcedExample[]) => number,
  score: (model: GuardModel, text: string) => number,
  log: (s: string) => void,
): FamilyRecall[] {
  const all = [...train, ...tune];
  const techniques = [...new Set(all.map(attackTechnique).filter((t): t is string => t !== null))].sort();
  const out: FamilyRecall[] = [];
  for (const technique of techniques) {
    const t0 = performance.now();
    const keep = train.filter((e) => e.y[PI] !== null && attackTechnique(e) !== technique).map(injectionOnly);
    const X = prepareFeatures(opts.features, keep.map((e) => e.text), opts.dense);
    const model = trainModel(keep, { ...opts, epochs: Math.min(opts.epochs, LOFO_EPOCHS), log: undefined }, X);
    quantizeWeights(model);
    const thr = threshold(model, tune.filter((e) => attackTechnique(e) !== technique));
    const held = all.filter((e) => attackTechnique(e) === technique);
    const flagged = held.map((e) => score(model, e.text) >= thr);
    const own = held.map((e) => e.source === 'gen-attack');
    const hit = flagged.filter(Boolean).length;
    const ownN = own.filter(Boolean).length;
    const ownHit = flagged.filter((v, i) => v && own[i]).length;
    const r: FamilyRecall = { technique, rows: held.length, threshold: thr, recall: hit / Math.max(1, held.length), recallAttacks: ownHit / Math.max(1, ownN) };
    out.push(r);
    const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
    log(`lofo ${technique.padEnd(20)} rows ${String(r.rows).padStart(5)}  thr ${r.threshold.toFixed(4)}  recall ${pct(r.recall)}  attacks.ts rows ${pct(r.recallAttacks)}  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const mean = (k: 'recall' | 'recallAttacks'): string => `${((100 * out.reduce((a, r) => a + r[k], 0)) / Math.max(1, out.length)).toFixed(1)}%`;
  log(`lofo mean recall over ${out.length} held-out techniques: ${mean('recall')} (attacks.ts rows only: ${mean('recallAttacks')})`);
  return out;
}
