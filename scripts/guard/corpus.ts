/**
 * Programmatically composed training corpus for the guardrail scorer, written for this project (no external
 * text, nothing derived from ../shared/evals):
 *
 *  - benignCorpus(): production-like requests that must pass (all eight labels 0): system prompts, RAG prompts
 *    with pasted documents, coding, support, translation, extraction, agent instructions, creative writing,
 *    medical/legal/history questions, short chat turns, and benign text full of trigger words ("kill the
 *    process", "ignore the formatting above", "shoot a photo", dosage questions, an essay on a massacre).
 *  - attackCorpus(): prompt-injection attacks (direct overrides, prompt leaks, role-play/jailbreak framing, fake
 *    system/tool markers, obfuscation, multilingual, and injections embedded inside pasted documents and tool
 *    results), labelled prompt_injection = 1 and the moderation labels unknown.
 *
 * Every row is composed from a template and slot fills chosen with a seeded PRNG, so the corpus is identical on
 * every run. Rows from one template share a `group`, so the train/validation split never puts a template's
 * variants on both sides: the validation false-positive rate measures templates the heads have not seen.
 */
import { GUARD_LABELS } from '../../src/guard/labels.js';
import { mulberry32, type LabelValue } from '../../src/guard/train.js';
import { generatedAttacks } from './attacks.js';
import type { SourcedExample } from './data.js';
import { generatedHardNegatives } from './hard-negatives.js';
import { triggerNegatives } from './trigger-negatives.js';
import { ATTACK_TEMPLATES, BENIGN_TEMPLATES, DOCUMENTS, MODERATION_TEMPLATES, SLOTS, type Template } from './corpus-text.js';

const L = GUARD_LABELS.length;
const PI = GUARD_LABELS.indexOf('prompt_injection');

/**
 * Fill `{slot}` references from SLOTS (nested fills allowed, depth-limited). An unknown slot in a template is an
 * error; inside a slot value (code such as `{id}`) it is literal text.
 */
export function fill(template: string, rnd: () => number, depth = 0, slots: Readonly<Record<string, readonly string[]>> = SLOTS): string {
  if (depth > 4) throw new Error(`corpus: slot nesting too deep in ${template}`);
  return template.replace(/\{([a-z_0-9]+)\}/g, (_m, name: string) => {
    if (name === 'doc') return pickDoc(rnd, 1);
    if (name === 'doc2') return pickDoc(rnd, 2);
    if (name === 'doc3') return pickDoc(rnd, 3);
    const options = slots[name] ?? SLOTS[name];
    if (!options || options.length === 0) {
      if (depth > 0) return `{${name}}`;
      throw new Error(`corpus: unknown slot {${name}}`);
    }
    const v = options[Math.floor(rnd() * options.length)] ?? '';
    return fill(v, rnd, depth + 1, slots);
  });
}

function pickDoc(rnd: () => number, paragraphs: number): string {
  const start = Math.floor(rnd() * DOCUMENTS.length);
  const out: string[] = [];
  for (let i = 0; i < paragraphs; i++) out.push(DOCUMENTS[(start + i * 7) % DOCUMENTS.length] ?? '');
  return out.join('\n\n');
}

export function expand(
  kind: string,
  templates: readonly Template[],
  seed: number,
  scale: number,
  y: (t: Template) => LabelValue[],
  slots: Readonly<Record<string, readonly string[]>> = SLOTS,
): SourcedExample[] {
  const rnd = mulberry32(seed);
  const out: SourcedExample[] = [];
  const seen = new Set<string>();
  templates.forEach((t, ti) => {
    const n = Math.max(1, Math.round((t.n ?? 6) * scale));
    for (let k = 0, tries = 0; k < n && tries < n * 4; tries++) {
      const text = fill(t.text, rnd, 0, slots).trim();
      if (seen.has(text)) continue;
      seen.add(text);
      k++;
      out.push({ text, y: y(t), w: new Array<number>(L).fill(t.weight ?? 1), source: `corpus-${kind}`, group: `corpus:${kind}:${t.id ?? ti}` });
    }
  });
  return out;
}

/** Benign, production-like requests: every label 0. */
export function benignCorpus(seed = 101, scale = 5): SourcedExample[] {
  return [...expand('benign', BENIGN_TEMPLATES, seed, scale, () => new Array<LabelValue>(L).fill(0)), ...generatedHardNegatives(), ...triggerNegatives()];
}

/** Prompt-injection attacks: prompt_injection 1, moderation labels unknown. */
export function attackCorpus(seed = 202, scale = 3): SourcedExample[] {
  const templated = expand('attack', ATTACK_TEMPLATES, seed, scale, () => {
    const y = new Array<LabelValue>(L).fill(null);
    y[PI] = 1;
    return y;
  });
  return [...templated, ...generatedAttacks()];
}

/** Harmful-content rows for the moderation heads: the template's labels 1, prompt_injection 0, the rest 0. */
export function moderationCorpus(seed = 303, scale = 2): SourcedExample[] {
  return expand('moderation', MODERATION_TEMPLATES, seed, scale, (t) =>
    GUARD_LABELS.map((l): LabelValue => (t.pos?.includes(l) ? 1 : t.unknown?.includes(l) ? null : 0)),
  );
}
