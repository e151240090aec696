/**
 * Piscina worker: content-inspection scores for the gateway.
 *
 *   const pool = new Piscina({ filename: new URL('../workers/guard.js', import.meta.url).href });
 *   const scores = await pool.run({ texts: ['...'] }, { name: 'score' });   // GuardScores[]
 *   const thr = await pool.run({}, { name: 'thresholds' });                 // Record<GuardLabel, number>
 *
 * workers/index.ts (the pool entry) is expected to re-export `score` and `thresholds` from here.
 *
 * The model is loaded lazily, once per worker thread, from $SVC_GUARD_MODEL or <project root>/models/guard-model.json.
 * A missing or unreadable model makes every task throw an Error whose message starts with
 * GUARD_UNAVAILABLE_PREFIX; the gateway answers 503 with `x-svc-guardrails: unavailable` (no scores are faked).
 */
import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { GUARD_LABELS, type GuardLabel } from '../src/guard/labels.js';
import { loadModel, scoreText, type GuardModel, type GuardScores } from '../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../src/guard/paths.js';
import { modelFromShared, shareModel, type SharedGuardModel } from '../src/guard/shared-model.js';
import { structureOffsets } from '../src/guard/structure.js';

export { GUARD_LABELS, type GuardLabel, type GuardScores };

/** Errors for an absent/corrupt model start with this (error properties do not survive the thread boundary). */
export const GUARD_UNAVAILABLE_PREFIX = 'guard_model_unavailable';

export interface ScoreTask {
  texts: string[];
}

export interface GuardModelInfo {
  path: string;
  labels: GuardLabel[];
  thresholds: Record<GuardLabel, number>;
}

let cached: { path: string; model: GuardModel } | null = null;

let defaultPath: string | null = null;

/**
 * The operator's per-category cuts (config `guardrails.thresholds`, handed to the workers as JSON in
 * SVC_GUARD_CUTS by the gateway). The sub-category rules and the sexual/minors cap are set from the cuts in force
 * (src/guard/structure.ts), so a stricter or looser cut moves them too; without overrides they come from the model
 * file's own cuts. Unknown labels and values outside (0, 1] are ignored (the config reader refuses them before).
 */
export function applyCutOverrides(model: GuardModel, raw: string | undefined): void {
  if (raw === undefined || raw.trim() === '' || model.labels.length !== GUARD_LABELS.length) return;
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null) return;
  const cuts: Record<GuardLabel, number> = { ...model.thresholds };
  let any = false;
  for (const l of GUARD_LABELS) {
    const v = (parsed as Record<string, unknown>)[l];
    if (typeof v === 'number' && v > 0 && v <= 1) {
      cuts[l] = v;
      any = true;
    }
  }
  if (any) model.structureOffsets = structureOffsets(cuts);
}

export function resolveModelPath(): string {
  const env = process.env['SVC_GUARD_MODEL'];
  if (env && env.trim() !== '') return env;
  // The project root never moves while the worker lives: walk the tree once, not per task.
  return (defaultPath ??= defaultModelPath(findProjectRoot(import.meta.url)));
}

/**
 * The model the gateway loaded and shared (src/pool/pool.ts WorkerPool.adoptModel hands it to every scoring thread
 * as workerData): its tables are the same shared memory, the operator's cuts already applied. A worker started on
 * demand then scores at once instead of parsing the model file (~140 ms and ~17 MiB of transient memory).
 */
function sharedFromParent(): SharedGuardModel | null {
  const given: unknown = (workerData as { guardModel?: unknown } | null)?.guardModel;
  return typeof given === 'object' && given !== null ? (given as SharedGuardModel) : null;
}

/** The score-only model from its file with the operator's cuts applied; throws GUARD_UNAVAILABLE_PREFIX errors. */
function loadFromFile(path: string, cuts: string | undefined): GuardModel {
  if (!existsSync(path)) {
    throw new Error(
      `${GUARD_UNAVAILABLE_PREFIX}: model file not found at ${path} (build it with \`make guard-model\`, i.e. node dist/scripts/guard/train.js --if-missing, or set SVC_GUARD_MODEL)`,
    );
  }
  try {
    // Score-only: a q8 model's int8 table is filled straight from the file; the float32 table is never built.
    const model = loadModel(path, { scoringOnly: true });
    applyCutOverrides(model, cuts);
    return model;
  } catch (err) {
    throw new Error(`${GUARD_UNAVAILABLE_PREFIX}: cannot load model ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The model loaded on the calling thread and described for sharing (the gateway's event loop at start, before it
 * listens), with `cuts` as SVC_GUARD_CUTS would give them. Not this module's cache: several gateways in one process
 * (tests) may each have their own cuts. Loading here rather than in a first scoring thread spares the process a
 * thread's start-up and exit, whose freed malloc memory (~8.5 MiB in glibc's arena for that thread) stayed
 * resident for the process's life. `shared` is null for a model without an int8 table (workers then load it
 * themselves); `thresholds` are the model file's own (the cuts move only the sub-category rules; the gateway puts
 * its config's thresholds over these).
 */
export function loadSharedModel(cuts: string | undefined): { shared: SharedGuardModel | null; thresholds: Record<GuardLabel, number> } {
  const loaded = loadFromFile(resolveModelPath(), cuts);
  return { shared: shareModel(loaded), thresholds: { ...loaded.thresholds } };
}

function getModel(): { path: string; model: GuardModel } {
  const path = resolveModelPath();
  if (cached && cached.path === path) return cached;
  const given = sharedFromParent();
  if (given !== null) {
    cached = { path, model: modelFromShared(given) };
    return cached;
  }
  cached = { path, model: loadFromFile(path, process.env['SVC_GUARD_CUTS']) };
  return cached;
}

/** Score each text: probability 0..1 per label. */
export function score({ texts }: ScoreTask): GuardScores[] {
  if (!Array.isArray(texts)) throw new TypeError('guard worker: task.texts must be an array of strings');
  const { model } = getModel();
  return texts.map((t) => scoreText(model, typeof t === 'string' ? t : String(t)));
}

/** Model location, labels and default thresholds (loads the model, so it doubles as a warm-up task). */
export function info(): GuardModelInfo {
  const { path, model } = getModel();
  return { path, labels: [...model.labels], thresholds: { ...model.thresholds } };
}

/** The model's default per-category thresholds (the gateway config may override them). */
export function thresholds(_task?: Record<string, never>): Record<GuardLabel, number> {
  return { ...getModel().model.thresholds };
}

/** Default export for `pool.run(task)` without a name: `{ texts }` scores, `{ op: 'info' }` describes the model. */
export default function guardTask(task: ScoreTask | { op: 'info' }): GuardScores[] | GuardModelInfo {
  if ('op' in task && task.op === 'info') return info();
  return score(task as ScoreTask);
}
