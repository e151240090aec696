/**
 * Structure for the rare sub-category heads, where public training positives barely exist: a sub-category is its
 * parent category plus a qualifier the lexicon detects in the same window. sexual/minors = sexual AND a reference
 * to a minor; violence/graphic = violence AND gore vocabulary; hate/threatening = hate AND threat vocabulary. Per
 * window, the child's logit becomes max(own logit, parent logit + offset) when the qualifier class is present, so
 * the child head never needs to have seen the parent's phrasings; its threshold is still chosen on the validation
 * split like every other head's.
 */
import { B } from './features.js';
import { GUARD_LABELS, type GuardLabel } from './labels.js';

interface Rule {
  child: number;
  parent: number;
  /** Lexicon class bits (features.ts B), any of which qualifies the window. */
  qualifier: number;
  offset: number;
  /**
   * When set, a loaded model (with its cuts) also caps the child's own logit at parent + (logit(child cut) -
   * logit(parent cut)) + cap: the child head can flag a text only where the parent is within `cap` logits of its own
   * cut. sexual/minors only: its own head learned "child", "children learn" from a hundred positives and refused
   * education questions ("Explain how children learn." 0.68 with sexual at 0.45); content sexualising minors is sexual.
   */
  cap?: number;
}

const at = (l: GuardLabel): number => GUARD_LABELS.indexOf(l);

export const STRUCTURE_RULES: readonly Rule[] = [
  { child: at('sexual/minors'), parent: at('sexual'), qualifier: B.minor, offset: 0, cap: 0.5 },
  { child: at('violence/graphic'), parent: at('violence'), qualifier: B.gore, offset: 0 },
  { child: at('hate/threatening'), parent: at('hate'), qualifier: B.threat, offset: 0 },
];

/** Mask of every qualifier class (a window without any skips the rules). */
export const QUALIFIER_MASK = STRUCTURE_RULES.reduce((m, r) => m | r.qualifier, 0);

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * Per rule, the offset a trained model's cuts call for: logit(child cut) - logit(parent cut), never above the rule's
 * own. With it the structured path refuses the child only where the parent itself clears its cut: with offset 0 a
 * text under the violence cut (0.8) but over the graphic one (0.5 floor) was refused as violence/graphic for one
 * gore word ("the claimant suffered a broken jaw", a court judgment, an accident report).
 *
 * Then, per rule, the cap of the child's own logit (Rule.cap): logit(child cut) - logit(parent cut) + cap, NaN for
 * rules without one. The array is [offsets..., caps...].
 */
export function structureOffsets(thresholds: Readonly<Record<GuardLabel, number>>): Float64Array {
  const cut = (l: number): number => Math.min(Math.max(thresholds[GUARD_LABELS[l]!] ?? 0.5, 1e-6), 1 - 1e-6);
  const gap = (r: Rule): number => logit(cut(r.child)) - logit(cut(r.parent));
  return Float64Array.from([
    ...STRUCTURE_RULES.map((r) => Math.min(r.offset, gap(r))),
    ...STRUCTURE_RULES.map((r) => (r.cap === undefined ? Number.NaN : gap(r) + r.cap)),
  ]);
}

/**
 * Apply the rules to one window's logits z[0..8) given the lexicon classes present in that window; `offsets`
 * (structureOffsets) replaces the rules' own and adds the caps (training uses neither: the cuts are chosen without
 * the caps, which only ever lower a child's score).
 */
export function applyStructure(z: Float64Array, classes: number, offsets?: ArrayLike<number>): void {
  if (offsets !== undefined && offsets.length > STRUCTURE_RULES.length) {
    for (let i = 0; i < STRUCTURE_RULES.length; i++) {
      const c = offsets[STRUCTURE_RULES.length + i] ?? Number.NaN;
      if (Number.isNaN(c)) continue;
      const r = STRUCTURE_RULES[i]!;
      const lim = (z[r.parent] ?? 0) + c;
      if ((z[r.child] ?? 0) > lim) z[r.child] = lim;
    }
  }
  if ((classes & QUALIFIER_MASK) === 0) return;
  for (let i = 0; i < STRUCTURE_RULES.length; i++) {
    const r = STRUCTURE_RULES[i]!;
    if ((classes & r.qualifier) === 0) continue;
    const v = (z[r.parent] ?? 0) + (offsets?.[i] ?? r.offset);
    if (v > (z[r.child] ?? 0)) z[r.child] = v;
  }
}
