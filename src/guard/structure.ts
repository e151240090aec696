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
}

const at = (l: GuardLabel): number => GUARD_LABELS.indexOf(l);

export const STRUCTURE_RULES: readonly Rule[] = [
  { child: at('sexual/minors'), parent: at('sexual'), qualifier: B.minor, offset: 0 },
  { child: at('violence/graphic'), parent: at('violence'), qualifier: B.gore, offset: 0 },
  { child: at('hate/threatening'), parent: at('hate'), qualifier: B.threat, offset: 0 },
];

/** Mask of every qualifier class (a window without any skips the rules). */
export const QUALIFIER_MASK = STRUCTURE_RULES.reduce((m, r) => m | r.qualifier, 0);

/** Apply the rules to one window's logits z[0..8) given the lexicon classes present in that window. */
export function applyStructure(z: Float64Array, classes: number): void {
  if ((classes & QUALIFIER_MASK) === 0) return;
  for (const r of STRUCTURE_RULES) {
    if ((classes & r.qualifier) === 0) continue;
    const v = (z[r.parent] ?? 0) + r.offset;
    if (v > (z[r.child] ?? 0)) z[r.child] = v;
  }
}
