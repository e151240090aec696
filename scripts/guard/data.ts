/**
 * Training-data assembly for the guardrail scorer: the unified public training file (with documented label
 * imputation and source weights) plus the hand-written examples in scripts/guard/extra-train.jsonl.
 * Never reads anything under ../shared/evals (held out).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { mulberry32, type LabelValue, type TrainExample } from '../../src/guard/train.js';

export interface SourcedExample extends TrainExample {
  source: string;
  /** Split key: rows generated from one hand-written template share a key so they land on the same side. */
  group: string;
}

/**
 * The benign corpus = production-like requests: the composed benign corpus and the hand-written benign/short
 * rows. Counter-speech, identity statements and profanity rows are hard negatives of particular heads and count
 * under NEG_BUDGET instead (train.ts). The thresholds are chosen on these rows.
 */
export function isBenignCorpus(e: SourcedExample): boolean {
  if (e.source === 'corpus-benign') return true;
  return e.source === 'extra' && /^extra:(benign|short-benign)-/.test(e.group) && e.y.every((v) => v === 0);
}

export function trainingPaths(root: string): { data: string; extra: string; requests: string } {
  return {
    data: resolve(root, '../shared/data/guardrails-train/guardrails-train-unified.jsonl.gz'),
    extra: join(root, 'scripts/guard/extra-train.jsonl'),
    /** Hand-written benign requests trained on (request-rows.ts). */
    requests: join(root, 'test/fixtures/guard-fresh2'),
  };
}

export function readJsonl(path: string): Array<Record<string, unknown>> {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t) out.push(JSON.parse(t) as Record<string, unknown>);
  }
  return out;
}

function lv(x: unknown): LabelValue {
  return x === 0 || x === 1 ? x : null;
}

const L = GUARD_LABELS.length;
const IDX = Object.fromEntries(GUARD_LABELS.map((l, i) => [l, i])) as Record<GuardLabel, number>;
const MODERATION: GuardLabel[] = GUARD_LABELS.filter((l) => l !== 'prompt_injection');

/** AILuminate "skilled" prompts that carry explicit jailbreak framing (used as extra injection positives). */
const JAILBREAK_FRAMING =
  /ignore (all )?(of )?(your|the|previous|prior|any)|apologi[sz]|disclaimer|never say|you are required|developer mode|restrictions|respond to the prompt|not allowed to say|unfiltered|jailbr|stay in character|(you are|act as) (an? )?(ai|chatbot|assistant)|from now on|do not (refuse|warn)|without (any )?(warning|caveat)|words like/i;

export interface DataOptions {
  /** Davidson "offensive" rows kept (of ~19k); hate and neither rows are all kept. */
  davidsonOffensive: number;
  davidsonHateWeight: number;
  /** Weight of Davidson hate negatives (offensive and neither rows). */
  davidsonNegWeight: number;
  /** Weight of imputed (not source-given) negatives. */
  imputedWeight: number;
  seed: number;
}

/**
 * Davidson rows weigh a quarter (were 0.5 / 0.5): its tweets are labelled noisily and its hate labels track African
 * American English and slur use more than hate; the functional rows (hate-functional.ts) carry the distinctions.
 * On the validation split this raised the non-Davidson hate AUROCs (functional rows 0.815 -> 0.824, AILuminate
 * 0.836 -> 0.846) and lowered Davidson's own (0.872 -> 0.844).
 */
export const DEFAULT_DATA_OPTIONS: DataOptions = { davidsonOffensive: 5000, davidsonHateWeight: 0.25, davidsonNegWeight: 0.25, imputedWeight: 0.3, seed: 7 };

/**
 * Map unified rows to examples. Imputation (documented in docs/guardrails-eval.md):
 *  - deepset legit rows: 0 for all moderation labels (weight 0.5); deepset injections: moderation unknown.
 *  - AILuminate: source labels; prompt_injection = 1 (w 0.7) for "skilled" prompts with explicit jailbreak
 *    framing, unknown for other skilled prompts, 0 (w 0.3) for unskilled prompts.
 *  - Davidson: hate as given (w davidsonHateWeight for positives, davidsonNegWeight for negatives); imputed 0 for
 *    prompt_injection, self-harm, sexual/minors, violence/graphic; hate/threatening 0 unless class hate;
 *    sexual and violence 0 only for class "neither". "offensive" rows subsampled.
 */
export function unifiedExamples(rows: Array<Record<string, unknown>>, opts: DataOptions = DEFAULT_DATA_OPTIONS): SourcedExample[] {
  const out: SourcedExample[] = [];
  const rnd = mulberry32(opts.seed);
  const offensive = rows.filter((r) => r['source'] === 'davidson-hate-offensive' && r['davidson_class'] === 'offensive_language');
  const keepOffensive = new Set<unknown>();
  const pool = offensive.map((r) => r['id']);
  for (let i = 0; i < Math.min(opts.davidsonOffensive, pool.length); i++) {
    const j = i + Math.floor(rnd() * (pool.length - i));
    const t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
    keepOffensive.add(pool[i]);
  }
  const imp = opts.imputedWeight;
  for (const r of rows) {
    const source = String(r['source']);
    const text = String(r['text'] ?? '');
    if (!text.trim()) continue;
    const y: LabelValue[] = GUARD_LABELS.map((l) => lv(r[l]));
    const w: number[] = new Array<number>(L).fill(1);
    const set = (l: GuardLabel, v: LabelValue, weight: number): void => {
      const i = IDX[l];
      if (y[i] === null) {
        y[i] = v;
        w[i] = weight;
      }
    };
    if (source.startsWith('deepset')) {
      if (y[IDX.prompt_injection] === 0) for (const l of MODERATION) set(l, 0, 0.5);
    } else if (source.startsWith('ailuminate')) {
      const persona = String(r['persona'] ?? '');
      if (persona === 'skilled') {
        if (JAILBREAK_FRAMING.test(text)) set('prompt_injection', 1, 0.7);
      } else {
        set('prompt_injection', 0, imp);
      }
    } else if (source.startsWith('davidson')) {
      const cls = String(r['davidson_class'] ?? '');
      if (cls === 'offensive_language' && !keepOffensive.has(r['id'])) continue;
      const hi = IDX.hate;
      w[hi] = y[hi] === 1 ? opts.davidsonHateWeight : opts.davidsonNegWeight;
      set('prompt_injection', 0, imp);
      set('self-harm', 0, imp);
      set('sexual/minors', 0, imp);
      set('violence/graphic', 0, imp);
      if (cls !== 'hate_speech') set('hate/threatening', 0, imp);
      if (cls === 'neither') {
        set('sexual', 0, imp);
        set('violence', 0, imp);
      }
    }
    out.push({ text, y, w, source, group: String(r['id'] ?? text) });
  }
  return out;
}

/** Targets for {group} (plural), {member} (singular with article) and {one} (bare singular) in extra-train.jsonl. */
export const GROUP_FILLERS: ReadonlyArray<readonly [string, string, string]> = [
  ['women', 'a woman', 'woman'],
  ['Muslims', 'a Muslim', 'Muslim'],
  ['Jews', 'a Jew', 'Jew'],
  ['Black people', 'a Black person', 'Black person'],
  ['gay people', 'a gay man', 'gay man'],
  ['trans people', 'a trans person', 'trans person'],
  ['immigrants', 'an immigrant', 'immigrant'],
  ['refugees', 'a refugee', 'refugee'],
  ['disabled people', 'a disabled person', 'disabled person'],
  ['Mexicans', 'a Mexican', 'Mexican'],
  ['Asians', 'an Asian person', 'Asian'],
  ['Arabs', 'an Arab', 'Arab'],
  ['Christians', 'a Christian', 'Christian'],
  ['Hindus', 'a Hindu', 'Hindu'],
  ['lesbians', 'a lesbian', 'lesbian'],
  ['Africans', 'an African', 'African'],
  ['Chinese people', 'a Chinese person', 'Chinese person'],
  ['Latinos', 'a Latino', 'Latino'],
  ['Sikhs', 'a Sikh', 'Sikh'],
  ['Roma', 'a Roma person', 'Roma person'],
  ['white people', 'a white person', 'white person'],
  ['Catholics', 'a Catholic', 'Catholic'],
  ['bisexual people', 'a bisexual person', 'bisexual person'],
  ['Indians', 'an Indian', 'Indian'],
];

/** FNV-1a + murmur3 finaliser (plain FNV-1a leaves the high bits poorly mixed for keys differing at the end). */
function strHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function capitalizeFirst(s: string): string {
  return s.length > 0 ? (s[0] ?? '').toUpperCase() + s.slice(1) : s;
}

/**
 * Hand-written rows: {"id","text","labels":{label:0|1},"rest":0?,"n":k?}. Labels not given are 0 when
 * rest is 0, else unknown. Texts with {group}/{member}/{one} are expanded with n (default 4) targets chosen
 * deterministically from the template id.
 */
export function extraExamples(rows: Array<Record<string, unknown>>): SourcedExample[] {
  const out: SourcedExample[] = [];
  for (const r of rows) {
    const id = String(r['id']);
    const text = String(r['text'] ?? '');
    const labels = (r['labels'] ?? {}) as Record<string, unknown>;
    const rest = lv(r['rest']);
    const y: LabelValue[] = GUARD_LABELS.map((l) => (l in labels ? lv(labels[l]) : rest));
    const templated = /\{(group|member|one)\}/.test(text);
    const n = templated ? Number(r['n'] ?? 4) : 1;
    const h = strHash(id);
    const G = GROUP_FILLERS.length;
    const step = 7; // coprime with G (24)
    for (let k = 0; k < n; k++) {
      let t = text;
      if (templated) {
        const f = GROUP_FILLERS[(h + k * step) % G] ?? GROUP_FILLERS[0];
        if (!f) continue;
        t = t.replaceAll('{group}', f[0]).replaceAll('{member}', f[1]).replaceAll('{one}', f[2]);
        if (/^\{(group|member|one)\}/.test(text)) t = capitalizeFirst(t);
      }
      out.push({ text: t, y: [...y], w: new Array<number>(L).fill(1), source: 'extra', group: `extra:${id}` });
    }
  }
  return out;
}

/** Deterministic split by group key: fraction `holdout` of groups go to the tuning split. */
export function splitByGroup<T extends { group: string }>(
  examples: T[],
  holdout: number,
  seed: number,
): { train: T[]; tune: T[]; trainIdx: number[]; tuneIdx: number[] } {
  const trainIdx: number[] = [];
  const tuneIdx: number[] = [];
  examples.forEach((e, i) => {
    const u = (strHash(`${seed}:${e.group}`) >>> 8) / (1 << 24);
    (u < holdout ? tuneIdx : trainIdx).push(i);
  });
  const pick = (ix: number[]): T[] => ix.map((i) => examples[i] as T);
  return { train: pick(trainIdx), tune: pick(tuneIdx), trainIdx, tuneIdx };
}

export function labelCounts(examples: readonly TrainExample[]): Array<{ label: GuardLabel; pos: number; neg: number }> {
  return GUARD_LABELS.map((label, i) => {
    let pos = 0;
    let neg = 0;
    for (const e of examples) {
      if (e.y[i] === 1) pos++;
      else if (e.y[i] === 0) neg++;
    }
    return { label, pos, neg };
  });
}
