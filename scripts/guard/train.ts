/**
 * Train the guardrail scorer and write models/guard-model.json.
 *
 *   node dist/scripts/guard/train.js [--if-missing] [--out PATH] [--tune] [--quiet]
 *
 * 1. Assemble examples (scripts/guard/data.ts), split 80/20 by template/row group (seeded).
 * 2. Train on the 80 %, choose per-label thresholds on the 20 % (max F1 at balanced prevalence).
 * 3. Retrain on 100 % with the same settings, store the thresholds, write the model atomically.
 * --if-missing skips all of this when the model is newer than the training inputs and the trainer code, or was
 * built from byte-identical inputs (content fingerprint in the model meta; tsc rewrites dist/ on every build).
 * --tune prints split metrics for a small hyper-parameter grid (training data only) and writes nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { auroc, bestF1Threshold, confusionAt, f1, precision, precisionThreshold, recall } from '../../src/guard/metrics.js';
import { quantizeWeights, saveModel, scoreTextArray, type GuardModel } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { DEFAULT_TRAIN_OPTIONS, prepareFeatures, subsetPrepared, trainModel, type TrainOptions } from '../../src/guard/train.js';
import {
  DEFAULT_DATA_OPTIONS,
  extraExamples,
  labelCounts,
  readJsonl,
  splitByGroup,
  trainingPaths,
  unifiedExamples,
  type SourcedExample,
} from './data.js';

const HOLDOUT = 0.2;
const SPLIT_SEED = 11;
/** F1 at the split's own class mix (false) or at 50 % prevalence (true). */
const BALANCED_F1 = false;
/**
 * Blocking thresholds: the higher of max-F1 and the lowest cut reaching PRECISION_TARGET (balanced) on the
 * tuning split, clamped so a degenerate split cannot produce an always-on or always-off head. Chosen once,
 * a priori: a false positive refuses a legitimate request, so precision is worth more than recall here.
 */
const THRESHOLD_RANGE: [number, number] = [0.5, 0.95];
const PRECISION_TARGET = 0.95;

interface Args {
  ifMissing: boolean;
  tune: boolean;
  quiet: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { ifMissing: false, tune: false, quiet: false, out: null };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--if-missing') a.ifMissing = true;
    else if (x === '--tune') a.tune = true;
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
  const { data, extra } = trainingPaths(root);
  const selfDir = dirname(selfPath);
  const ext = selfPath.endsWith('.ts') ? '.ts' : '.js';
  const trainer = ['train', 'data'].map((n) => join(selfDir, `${n}${ext}`));
  return [data, extra, ...trainer, ...filesIn(resolve(selfDir, '../../src/guard'), ext)].filter((p) => existsSync(p)).sort();
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
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
}

function evaluateSplit(model: GuardModel, tune: SourcedExample[]): SplitReport[] {
  const scores = tune.map((e) => scoreTextArray(model, e.text));
  return GUARD_LABELS.map((label, l) => {
    const s: number[] = [];
    const y: number[] = [];
    tune.forEach((e, i) => {
      const v = e.y[l];
      if (v === 0 || v === 1) {
        s.push(scores[i]?.[l] ?? 0);
        y.push(v);
      }
    });
    const best = bestF1Threshold(s, y, { balanced: BALANCED_F1 });
    const precise = precisionThreshold(s, y, PRECISION_TARGET) ?? THRESHOLD_RANGE[1];
    const threshold = Math.min(THRESHOLD_RANGE[1], Math.max(THRESHOLD_RANGE[0], best.threshold, precise));
    const c = confusionAt(s, y, threshold);
    return {
      label,
      pos: y.filter((v) => v === 1).length,
      neg: y.filter((v) => v === 0).length,
      auroc: auroc(s, y),
      threshold,
      precision: precision(c),
      recall: recall(c),
      f1: f1(c),
    };
  });
}

function fmt(x: number, d = 3): string {
  return Number.isFinite(x) ? x.toFixed(d) : 'n/a';
}

function printReport(rep: SplitReport[], log: (s: string) => void): void {
  log('label               pos   neg  AUROC  thr    P      R      F1');
  for (const r of rep) {
    log(
      `${r.label.padEnd(18)} ${String(r.pos).padStart(4)} ${String(r.neg).padStart(5)}  ${fmt(r.auroc)}  ${fmt(r.threshold, 2)}  ${fmt(r.precision)}  ${fmt(r.recall)}  ${fmt(r.f1)}`,
    );
  }
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
  const examples = [...unifiedExamples(readJsonl(paths.data), DEFAULT_DATA_OPTIONS), ...extraExamples(readJsonl(paths.extra))];
  const { train, tune, trainIdx } = splitByGroup(examples, HOLDOUT, SPLIT_SEED);
  log(`examples: ${examples.length} (train split ${train.length}, tuning split ${tune.length}); load ${(performance.now() - t0).toFixed(0)} ms`);
  for (const c of labelCounts(examples)) log(`  ${c.label.padEnd(18)} pos ${c.pos} neg ${c.neg}`);

  const baseOpts: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS };
  const tp = performance.now();
  const Xall = prepareFeatures(baseOpts.features, examples.map((e) => e.text));
  const Xtrain = subsetPrepared(Xall, trainIdx);
  log(`features: ${Xall.idx.length} non-zeros in ${(performance.now() - tp).toFixed(0)} ms`);

  if (args.tune) {
    const grid: Array<Partial<TrainOptions>> = [
      {},
      { lr: 0.05 },
      { lr: 0.1 },
      { lr: 0.05, epochs: 6 },
      { lr: 0.05, classBalancePower: 1 },
    ];
    for (const g of grid) {
      const opts = { ...baseOpts, ...g };
      const t = performance.now();
      const m = trainModel(train, opts, Xtrain);
      quantizeWeights(m);
      const rep = evaluateSplit(m, tune);
      const meanAuc = rep.reduce((a, r) => a + (Number.isFinite(r.auroc) ? r.auroc : 0), 0) / rep.length;
      const meanF1 = rep.reduce((a, r) => a + r.f1, 0) / rep.length;
      log(`grid ${JSON.stringify(g)}: mean AUROC ${fmt(meanAuc, 4)} mean F1 ${fmt(meanF1, 4)} (${(performance.now() - t).toFixed(0)} ms)`);
      printReport(rep, log);
    }
    return;
  }

  const t1 = performance.now();
  const splitModel = trainModel(train, baseOpts, Xtrain);
  quantizeWeights(splitModel);
  const rep = evaluateSplit(splitModel, tune);
  log(`split model trained in ${(performance.now() - t1).toFixed(0)} ms; tuning-split metrics at chosen thresholds:`);
  printReport(rep, log);

  const t2 = performance.now();
  const model = trainModel(examples, { ...baseOpts, log: args.quiet ? undefined : (s: string): void => log(`  ${s}`) }, Xall);
  quantizeWeights(model);
  log(`final model trained on all ${examples.length} examples in ${(performance.now() - t2).toFixed(0)} ms`);
  for (const r of rep) model.thresholds[r.label] = Number(r.threshold.toFixed(4));
  model.meta = {
    ...model.meta,
    thresholdRule: `max(max F1 (${BALANCED_F1 ? 'balanced prevalence' : 'natural class mix'}), lowest cut with balanced precision >= ${PRECISION_TARGET}) on a ${HOLDOUT * 100}% group split of the training data (seed ${SPLIT_SEED}), clamped to [${THRESHOLD_RANGE.join(', ')}]`,
    tuningSplit: rep.map((r) => ({ ...r, auroc: Number(fmt(r.auroc, 4)), precision: Number(fmt(r.precision, 4)), recall: Number(fmt(r.recall, 4)), f1: Number(fmt(r.f1, 4)) })),
    labelCounts: labelCounts(examples),
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
