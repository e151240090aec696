/**
 * Train the guardrail scorer and write models/guard-model.json.
 *
 *   node dist/scripts/guard/train.js [--if-missing] [--out PATH] [--tune] [--quiet]
 *
 * 1. Assemble examples: the public training file, the hand-written rows (extra-train.jsonl) and the composed
 *    benign / attack corpus (scripts/guard/corpus.ts); split by template/row group (seeded) into train and
 *    validation.
 * 2. Train on the train split (seeded, deterministic).
 * 3. Per label, choose the threshold on the validation split: the lowest cut that flags at most FP_BUDGET of the
 *    benign corpus rows (production-like requests) and at most NEG_BUDGET of all the label's negatives; report
 *    recall there. The shipped model is the one the thresholds were chosen for (no retrain on 100 %, which
 *    would shift every score under the chosen cuts).
 * --if-missing skips all of this when the model is newer than the training inputs and the trainer code, or was
 * built from byte-identical inputs (content fingerprint in the model meta; tsc rewrites dist/ on every build).
 * --tune prints validation metrics for a small hyper-parameter grid (training data only) and writes nothing.
 * --lofo prints the prompt-injection head's leave-one-technique-out recall (scripts/guard/lofo.ts) and writes nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { auprc, auroc, confusionAt, f1, fprThreshold, precision, recall } from '../../src/guard/metrics.js';
import { quantizeWeights, saveModel, scoreTextArray, type GuardModel } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { DEFAULT_TRAIN_OPTIONS, prepareFeatures, trainModel, type TrainOptions } from '../../src/guard/train.js';
import { EMBEDDING_DIR, loadEmbeddingTable } from '../../src/guard/embeddings.js';
import { trainingExamples } from './examples.js';
import {
  DEFAULT_DATA_OPTIONS,
  isBenignCorpus,
  labelCounts,
  splitByGroup,
  trainingPaths,
  type SourcedExample,
} from './data.js';
import { CALIBRATION_REQUESTS } from '../../test/fixtures/guard-holdout/benign-requests.js';
import { leaveOneFamilyOut } from './lofo.js';

const HOLDOUT = 0.2;

const SPLIT_SEED = 11;
/**
 * At most this share of the validation benign corpus may reach a label's threshold (the budget). The
 * generated hard negatives (source gen-benign-policy: policy language, sex education, relationships, games...) are
 * held to it per head they are labelled 0 for: they are not production requests as such, but a head whose cut sat
 * at its 0.5 floor under them refused "how do I tell my boyfriend I'm not ready to have sex yet".
 */
const FP_BUDGET = 0.005;
/**
 * The cut is chosen for half the budget: the validation benign rows are about a thousand, so a 0.5 % estimate is
 * five rows and its sampling error is as large as the budget itself; unseen production traffic needs the margin.
 */
const FP_TARGET = FP_BUDGET / 2;
/**
 * Share of the calibration requests one category may refuse: none. A request is refused when any of the eight
 * categories flags it, so per-category budgets add up (0.25 % each was 1.75 % of requests on the measured half).
 */
const CALIBRATION_FP = 0;
/**
 * Share of the benign corpus validation rows one moderation category may flag: none either, for the same reason
 * (seven categories share one request's refusal budget). Prompt injection keeps FP_TARGET: its benign rows
 * include thousands of generated trigger-word near-misses built to sit at its boundary.
 */
const BENIGN_FP = 0;
/** At most this share of all of a label's validation negatives (other harms, offensive tweets...) may reach it. */
const NEG_BUDGET = 0.05;
/** Thresholds never go below this (a head whose validation negatives all score low is not trusted blindly). */
const THRESHOLD_FLOOR = 0.5;
/**
 * Logit margin added above the floor and the benign-pool, hard-negative and calibration rules (not the all-negatives
 * budget): those cuts sit just above the single highest-scoring benign row, and a retrain moves benign rows near a cut
 * by a few hundredths either way, so a request that scored just under the cut of one model was refused by the next
 * ("17 to hit! I want to knock him out" at 0.621 against a 0.620 cut). Unseen traffic spills over the highest row of a
 * sample as well.
 */
const CUT_MARGIN = 0.25;

/** A cut moved up by CUT_MARGIN in logit (0 and 1 stay). */
function widen(p: number): number {
  return p <= 0 || p >= 1 ? p : 1 / (1 + Math.exp(-(Math.log(p / (1 - p)) + CUT_MARGIN)));
}
/**
 * Sparse-row L2 of the moderation heads: ten times the injection head's. Their training positives are a few
 * templates and short requests; a strong prior keeps each n-gram's weight small, so a head leans on many words
 * (and on the dense and lexicon features) instead of memorising template phrasing. Chosen on the validation split
 * (mean moderation AUROC 0.95 -> 0.96 from 1e-3 to 1e-2); the held-out gain was larger.
 */
const MODERATION_L2 = 1e-2;
/**
 * Mean-pooled word-embedding features (see src/guard/embeddings.ts) for the moderation heads. The injection head
 * keeps its sparse features only: topic vectors say what a text is about, not whether it overrides instructions.
 *
 * floor: the pooled vector is the sum over max(in-vocabulary tokens, floor), so a short text gets a damped vector, as
 * its sparse features are (FeatureConfig wordFloor 10). At 4 a two- to five-word request was all topic: "child" and
 * "learns" carried "Explain how a child learns." to sexual/minors 0.96, the one-word assistant turn "Searching." sat on
 * the sexual cut, and such short benign rows set the sexual cuts (0.72-0.75, recall on the validation split 21-26 %).
 * At 10 the cuts fell to the 0.5 floor (before CUT_MARGIN and the hard-negative rule) with the validation AUROCs
 * unchanged (0.98), so recall at the cut roughly doubled; the held-out AUROCs of the sexual heads fell by about
 * 0.01-0.02 (docs/guardrails-eval.md).
 */
const DENSE = { floor: 10, scale: 8, l2: 1e-6, labels: GUARD_LABELS.map((_l, i) => i).filter((i) => GUARD_LABELS[i] !== 'prompt_injection') };


interface Args {
  ifMissing: boolean;
  tune: boolean;
  lofo: boolean;
  quiet: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { ifMissing: false, tune: false, lofo: false, quiet: false, out: null };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--if-missing') a.ifMissing = true;
    else if (x === '--tune') a.tune = true;
    else if (x === '--lofo') a.lofo = true;
    else if (x === '--quiet') a.quiet = true;
    else if (x === '--out') a.out = argv[++i] ?? null;
    else throw new Error(`train: unknown argument ${String(x)}`);
  }
  return a;
}

function filesIn(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f));
}

/** Inputs whose modification makes the model stale: data, hand-written rows, trainer and model code. */
function staleInputs(root: string, selfPath: string): string[] {
  const { data, extra, requests } = trainingPaths(root);
  const selfDir = dirname(selfPath);
  const ext = selfPath.endsWith('.ts') ? '.ts' : '.js';
  const trainer = ['train', 'data', 'corpus', 'corpus-text', 'moderation-text', 'attacks', 'attack-text', 'hard-negatives', 'trigger-negatives', 'hate-functional', 'violence-text', 'context-negatives', 'policy-negatives', 'idiom-negatives', 'request-rows', 'examples'].map((n) =>
    join(selfDir, `${n}${ext}`),
  );
  const emb = ['embeddings.bin', 'embeddings-vocab.txt'].map((f) => join(root, EMBEDDING_DIR, f));
  const calibration = filesIn(resolve(selfDir, '../../test/fixtures/guard-holdout'), ext);
  return [data, extra, ...filesIn(requests, '.jsonl'), ...emb, ...trainer, ...calibration, ...filesIn(resolve(selfDir, '../../src/guard'), ext)].filter((p) => existsSync(p)).sort();
}

/** Content fingerprint of the inputs (tsc rewrites dist/ on every build, so mtimes alone would always retrain). */
function fingerprint(root: string, inputs: string[]): string {
  const h = createHash('sha256');
  for (const p of inputs) {
    h.update(relative(root, p));
    h.update('\0');
    h.update(readFileSync(p));
    h.update('\0');
  }
  return h.digest('hex');
}

function storedFingerprint(modelPath: string): string | null {
  try {
    const raw = JSON.parse(readFileSync(modelPath, 'utf8')) as { meta?: { inputFingerprint?: unknown } };
    const f = raw.meta?.inputFingerprint;
    return typeof f === 'string' ? f : null;
  } catch {
    return null;
  }
}

/** Up to date when the model is newer than every input, or was built from byte-identical inputs. */
function isUpToDate(modelPath: string, root: string, inputs: string[]): boolean {
  if (!existsSync(modelPath)) return false;
  const m = statSync(modelPath).mtimeMs;
  if (inputs.every((p) => statSync(p).mtimeMs <= m)) return true;
  return storedFingerprint(modelPath) === fingerprint(root, inputs);
}

interface SplitReport {
  label: GuardLabel;
  pos: number;
  neg: number;
  auroc: number;
  auprc: number;
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
  /** Share of the validation benign corpus flagged at the threshold. */
  benignFpr: number;
  benignN: number;
  /** Share of all validation negatives flagged. */
  negFpr: number;
  /** Which rule set the cut (the highest of the five) and, for the benign corpus, the start of the row at the cut. */
  cutBy: string;
}

/**
 * The hand-written production requests of test/fixtures/guard-holdout (never trained on) are split in two: half
 * is a second benign pool for the cut, the other half measures it (test/unit/guard/holdout-benign.test.ts). Our
 * composed corpus is templated, so its validation split underestimates what real traffic trips: on the measured
 * half, cuts chosen on the corpus alone refused 2 % of the requests.
 *
 * Per label, the scores of the calibration requests, each judged as the gateway judges a request: the highest
 * score over its messages, prompt injection over the untrusted ones only (user and tool turns).
 */
function calibrationScores(model: GuardModel): number[][] {
  const requests = CALIBRATION_REQUESTS;
  return GUARD_LABELS.map((label, l) =>
    requests.map((r) => {
      let max = 0;
      for (const m of r.messages) {
        if (label === 'prompt_injection' && m.role !== 'user' && m.role !== 'tool') continue;
        max = Math.max(max, scoreTextArray(model, m.content)[l] ?? 0);
      }
      return max;
    }),
  );
}

function evaluateSplit(model: GuardModel, tune: SourcedExample[]): SplitReport[] {
  const scores = tune.map((e) => scoreTextArray(model, e.text));
  const benign = tune.map(isBenignCorpus);
  const calibration = calibrationScores(model);
  return GUARD_LABELS.map((label, l) => {
    const s: number[] = [];
    const y: number[] = [];
    const benignScores: number[] = [];
    const benignTexts: string[] = [];
    const hardScores: number[] = [];
    const hardTexts: string[] = [];
    tune.forEach((e, i) => {
      const v = e.y[l];
      if (v === 0 || v === 1) {
        s.push(scores[i]?.[l] ?? 0);
        y.push(v);
      }
      if (benign[i]) {
        benignScores.push(scores[i]?.[l] ?? 0);
        benignTexts.push(e.text);
      } else if (v === 0 && e.source === 'gen-benign-policy') {
        hardScores.push(scores[i]?.[l] ?? 0);
        hardTexts.push(e.text);
      }
    });
    const negScores = s.filter((_v, i) => y[i] === 0);
    const rules: Array<[string, number]> = [
      ['floor', widen(THRESHOLD_FLOOR)],
      ['benign corpus', widen(fprThreshold(benignScores, label === 'prompt_injection' ? FP_TARGET : BENIGN_FP))],
      ['all negatives', fprThreshold(negScores, NEG_BUDGET)],
      ['benign hard negatives', widen(fprThreshold(hardScores, FP_BUDGET))],
      ['calibration requests', widen(fprThreshold(calibration[l] ?? [], CALIBRATION_FP))],
    ];
    const [rule, threshold] = rules.reduce((a, b) => (b[1] > a[1] ? b : a));
    // The row that sets the cut: the highest-scoring one under it (ties and the 1e-6 step aside), for the two
    // rules that are set by rows of our own benign data.
    const [rowScores, rowTexts] = rule === 'benign corpus' ? [benignScores, benignTexts] : rule === 'benign hard negatives' ? [hardScores, hardTexts] : [[], []];
    let at = -1;
    for (let i = 0; i < rowScores.length; i++) if (rowScores[i]! < threshold && (at < 0 || rowScores[i]! > rowScores[at]!)) at = i;
    const cutBy = at >= 0 ? `${rule}: ${JSON.stringify((rowTexts[at] ?? '').slice(0, 100))}` : rule;
    const c = confusionAt(s, y, threshold);
    return {
      label,
      pos: y.filter((v) => v === 1).length,
      neg: y.filter((v) => v === 0).length,
      auroc: auroc(s, y),
      auprc: auprc(s, y),
      threshold,
      precision: precision(c),
      recall: recall(c),
      f1: f1(c),
      benignFpr: benignScores.filter((v) => v >= threshold).length / Math.max(1, benignScores.length),
      benignN: benignScores.length,
      negFpr: c.fp / Math.max(1, c.fp + c.tn),
      cutBy,
    };
  });
}

function fmt(x: number, d = 3): string {
  return Number.isFinite(x) ? x.toFixed(d) : 'n/a';
}

function printReport(rep: SplitReport[], log: (s: string) => void): void {
  log('label               pos   neg  AUROC  AUPRC  thr     P      R      F1     benignFPR  negFPR');
  for (const r of rep) {
    log(
      `${r.label.padEnd(18)} ${String(r.pos).padStart(4)} ${String(r.neg).padStart(5)}  ${fmt(r.auroc)}  ${fmt(r.auprc)}  ${fmt(r.threshold, 4)}  ${fmt(r.precision)}  ${fmt(r.recall)}  ${fmt(r.f1)}  ${fmt(100 * r.benignFpr, 2)}%  ${fmt(100 * r.negFpr, 2)}%`,
    );
  }
  for (const r of rep) log(`cut of ${r.label} set by ${r.cutBy}`);
}

export async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const selfPath = fileURLToPath(import.meta.url);
  const root = findProjectRoot(import.meta.url);
  const outPath = args.out ? resolve(args.out) : defaultModelPath(root);
  const log = args.quiet ? (): void => undefined : (s: string): void => console.log(`[guard-train] ${s}`);

  const paths = trainingPaths(root);
  const inputs = staleInputs(root, selfPath);
  if (args.ifMissing && isUpToDate(outPath, root, inputs)) {
    log(`model up to date: ${outPath} (skipping)`);
    return;
  }
  if (!existsSync(paths.data)) throw new Error(`guard-train: training data not found at ${paths.data}`);

  const t0 = performance.now();
  const examples = trainingExamples(paths);
  const { train, tune } = splitByGroup(examples, HOLDOUT, SPLIT_SEED);
  log(`examples: ${examples.length} (train split ${train.length}, validation split ${tune.length}; benign corpus ${examples.filter(isBenignCorpus).length}); load ${(performance.now() - t0).toFixed(0)} ms`);
  for (const c of labelCounts(examples)) log(`  ${c.label.padEnd(18)} pos ${c.pos} neg ${c.neg}`);

  const table = loadEmbeddingTable(root);
  const labelL2 = GUARD_LABELS.map((l) => (l === 'prompt_injection' ? undefined : MODERATION_L2));
  const baseOpts: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, labelL2, dense: { table, ...DENSE } };
  if (args.lofo) {
    const pi = GUARD_LABELS.indexOf('prompt_injection');
    const threshold = (m: GuardModel, t: SourcedExample[]): number => evaluateSplit(m, t)[pi]?.threshold ?? 1;
    leaveOneFamilyOut(train, tune, baseOpts, threshold, (m, text) => scoreTextArray(m, text)[pi] ?? 0, log);
    return;
  }
  const tp = performance.now();
  const Xtrain = prepareFeatures(baseOpts.features, train.map((e) => e.text), baseOpts.dense);
  log(`features: ${Xtrain.idx.length} non-zeros in ${(performance.now() - tp).toFixed(0)} ms`);

  if (args.tune) {
    const grid: Array<Partial<TrainOptions>> = [
      { l2: 1e-5 },
      { l2: 1e-4 },
      { l2: 3e-4 },
      { l2: 1e-3 },
      { l2: 3e-3 },
    ];
    for (const g of grid) {
      const opts = { ...baseOpts, ...g };
      const t = performance.now();
      const m = trainModel(train, opts, Xtrain);
      quantizeWeights(m);
      const rep = evaluateSplit(m, tune);
      const meanAuc = rep.reduce((a, r) => a + (Number.isFinite(r.auroc) ? r.auroc : 0), 0) / rep.length;
      const meanF1 = rep.reduce((a, r) => a + r.f1, 0) / rep.length;
      const meanAp = rep.reduce((a, r) => a + (Number.isFinite(r.auprc) ? r.auprc : 0), 0) / rep.length;
      log(`grid ${JSON.stringify(g)}: mean AUROC ${fmt(meanAuc, 4)} mean AUPRC ${fmt(meanAp, 4)} mean F1 ${fmt(meanF1, 4)} (${(performance.now() - t).toFixed(0)} ms)`);
      printReport(rep, log);
    }
    return;
  }

  const t1 = performance.now();
  const model = trainModel(train, { ...baseOpts, log: args.quiet ? undefined : (s: string): void => log(`  ${s}`) }, Xtrain);
  quantizeWeights(model);
  const rep = evaluateSplit(model, tune);
  log(`trained on ${train.length} examples in ${(performance.now() - t1).toFixed(0)} ms; validation-split metrics at the chosen thresholds:`);
  printReport(rep, log);
  for (const r of rep) model.thresholds[r.label] = Number(r.threshold.toFixed(4));
  const r4 = (x: number): number => Number(fmt(x, 4));
  model.meta = {
    ...model.meta,
    thresholdRule: `highest of: the lowest cut flagging none (prompt injection: ${FP_TARGET * 100}%) of the benign corpus rows of a ${HOLDOUT * 100}% group-held-out validation split of the training data (seed ${SPLIT_SEED}); at most ${FP_BUDGET * 100}% of the generated benign hard negatives labelled 0 for the head in that split; none of the calibration half of the hand-written production requests (test/fixtures/guard-holdout, even positions, never trained on); floor ${THRESHOLD_FLOOR}; each of these four widened by ${CUT_MARGIN} in logit; at most ${NEG_BUDGET * 100}% of all the label's validation negatives`,
    tuningSplit: rep.map((r) => ({ ...r, auroc: r4(r.auroc), auprc: r4(r.auprc), precision: r4(r.precision), recall: r4(r.recall), f1: r4(r.f1), benignFpr: r4(r.benignFpr), negFpr: r4(r.negFpr) })),
    labelCounts: labelCounts(examples),
    benignCorpus: { total: examples.filter(isBenignCorpus).length, validation: tune.filter(isBenignCorpus).length },
    dataOptions: DEFAULT_DATA_OPTIONS,
    inputFingerprint: fingerprint(root, inputs),
    inputs: inputs.map((p) => relative(root, p)),
  };
  const bytes = saveModel(outPath, model);
  log(`wrote ${outPath} (${(bytes / 1024 / 1024).toFixed(2)} MiB); total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
