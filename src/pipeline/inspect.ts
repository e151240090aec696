import { performance } from 'node:perf_hooks';
import { GUARD_CATEGORIES, type GatewayConfig, type GuardCategory } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../obs/logger.js';
import type { Metrics } from '../obs/metrics.js';
import type { ScoreBatcher } from '../pool/score-batcher.js';
import { usdToNano } from '../billing/money.js';
import type { SecondStage } from '../guard/second-stage.js';
import type { TextFlow } from './flow.js';
import type { Stage } from './stage.js';
import type { RequestState } from './state.js';

export interface InspectDeps {
  guardrails: GatewayConfig['guardrails'];
  scorer: Pick<ScoreBatcher, 'score'>;
  thresholds: () => Readonly<Record<GuardCategory, number>>;
  metrics: Pick<Metrics, 'guardFlags' | 'guardSecondStage'> & { guardMs: Pick<Metrics['guardMs'], 'observe'> };
  log: Pick<Logger, 'info' | 'warn'>;
  /** The optional second stage for the uncertain band (guardrails.secondStage), else null. */
  secondStage?: SecondStage | null;
}

export interface PendingInspection {
  scored: string[];
  /** Parallel to scored: untrusted content (user turns, tool results), the only text judged for prompt injection. */
  untrusted: boolean[];
  /** Some prompt text was not inspected (over guardrails.maxChars). */
  partial: boolean;
  scoring: Promise<Record<string, number>[]> | null;
  startedAt: number;
}

/**
 * Starts scoring once admission has passed (a refused key never costs the pool anything), so the worker
 * round trip overlaps routing and the exact count; the verdict is applied by the inspect stage.
 *
 * `untrusted[i]` marks texts the key holder did not write (user turns, tool results, pasted documents): prompt
 * injection is an attack by such content, so only they are judged for it; the key holder's own system/developer
 * instructions are judged for the moderation categories only. The worker scores each text over windows that
 * cover all of it, so an injection in the middle of a long document is seen; text beyond maxChars is not.
 */
export function startInspection(
  d: Pick<InspectDeps, 'guardrails' | 'scorer' | 'secondStage'>,
  texts: readonly string[],
  tenant: string,
  untrusted: readonly boolean[] = [],
): PendingInspection {
  const cfg = d.guardrails;
  const scored: string[] = [];
  const flags: boolean[] = [];
  let partial = false;
  if (cfg.mode === 'off') return { scored, untrusted: flags, partial, scoring: null, startedAt: 0 };
  let budget = cfg.maxChars;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (t.length === 0) continue;
    if (budget <= 0) {
      partial = true;
      break;
    }
    // Unknown provenance (a caller that passes no flags) is treated as untrusted: judged for everything.
    flags.push(untrusted[i] ?? true);
    if (t.length > budget) {
      // Keep both ends of an over-long text: injections hide at either end.
      const half = Math.floor(budget / 2);
      scored.push(t.slice(0, half) + '\n' + t.slice(t.length - half));
      partial = true;
    } else scored.push(t);
    budget -= t.length;
  }
  const pending: PendingInspection = { scored, untrusted: flags, partial, scoring: null, startedAt: performance.now() };
  if (scored.length === 0) return pending;
  // Monitor without a second stage never waits for the verdict (see inspect()): its texts may linger for company.
  // svc_guardrail_ms then counts from when they join a pool task, so monitor shows the scoring time enforce would add.
  const linger = cfg.mode === 'monitor' && !d.secondStage;
  pending.scoring = d.scorer.score(scored, tenant, linger ? { linger, onDispatch: () => void (pending.startedAt = performance.now()) } : undefined);
  pending.scoring.catch(() => {}); // awaited and reported by inspect(); never an unhandled rejection
  return pending;
}

/** Per category, the highest score over the texts judged for it (prompt injection: untrusted texts only). */
export function categoryScores(results: readonly Record<string, number>[], untrusted: readonly boolean[]): Record<GuardCategory, number> {
  const out = {} as Record<GuardCategory, number>;
  for (const cat of GUARD_CATEGORIES) {
    let max = 0;
    for (let i = 0; i < results.length; i++) {
      if (cat === 'prompt_injection' && untrusted[i] === false) continue;
      max = Math.max(max, results[i]![cat] ?? 0);
    }
    out[cat] = max;
  }
  return out;
}

/** The refusal text: which categories, and how an operator measures first or changes the cut. */
export function blockedMessage(flagged: readonly GuardCategory[]): string {
  const cats = flagged.join(', ');
  return (
    `The request was blocked by content inspection: category ${cats}. ` +
    'If this prompt is legitimate, the gateway operator can measure before enforcing with guardrails mode `monitor` ' +
    '(SVC_GUARDRAILS_MODE=monitor: flagged requests are served, logged and counted per category) or raise the ' +
    `per-category threshold in the config \`guardrails.thresholds\` (for example {"${flagged[0] ?? 'prompt_injection'}": 0.99}).`
  );
}

/**
 * Stage 3: prompt injection + the seven moderation categories, scored in the worker pool (never on the
 * event loop). Over threshold under `enforce`: 400 guardrail_blocked. A scorer that cannot run (missing
 * model, crash, timeout) on an enforcing rule: 503 with x-svc-guardrails: unavailable, never a silent pass.
 */
export async function inspect(d: InspectDeps, st: RequestState, pending: PendingInspection): Promise<void> {
  const cfg = d.guardrails;
  const thresholds = d.thresholds();
  if (cfg.mode === 'off') {
    st.guardrails = 'none';
    return;
  }
  if (pending.scoring === null) {
    st.guardrails = cfg.mode === 'monitor' ? 'monitor' : 'pass';
    return;
  }
  if (cfg.mode === 'monitor' && !d.secondStage) {
    // Monitor never changes what is served, so the request does not wait for its verdict: the scores are
    // logged and counted when they arrive (the upstream call overlaps the worker round trip). With a second
    // stage the request waits, because that call is charged to the organization with the request.
    st.guardrails = 'monitor';
    const scoring = pending.scoring;
    scoring.then(
      (results) => {
        d.metrics.guardMs.observe(performance.now() - pending.startedAt);
        const scores = categoryScores(results, pending.untrusted);
        reportMonitorHits(d, st.id, scores, thresholds, overThreshold(scores, thresholds), pending.partial);
      },
      (e: unknown) => {
        d.metrics.guardMs.observe(performance.now() - pending.startedAt);
        d.log.warn('guardrail scorer unavailable', { request_id: st.id, error: (e as Error).message });
      },
    );
    return;
  }
  let results: Record<string, number>[];
  try {
    results = await pending.scoring;
  } catch (e) {
    d.log.warn('guardrail scorer unavailable', { request_id: st.id, error: (e as Error).message });
    if (cfg.mode === 'monitor') {
      st.guardrails = 'monitor';
      return;
    }
    st.guardrails = 'unavailable';
    throw new GatewayError('service_unavailable', {
      message: 'Content inspection could not run; the request was not judged. Retry later.',
      headers: { 'x-svc-guardrails': 'unavailable' },
      cause: e,
    });
  } finally {
    d.metrics.guardMs.observe(performance.now() - pending.startedAt);
  }
  const scores = categoryScores(results, pending.untrusted);
  let flagged = overThreshold(scores, thresholds);
  if (d.secondStage) flagged = await secondOpinion(d, d.secondStage, st, pending, scores, thresholds, flagged);
  if (cfg.mode === 'monitor') {
    st.guardrails = 'monitor';
    reportMonitorHits(d, st.id, scores, thresholds, flagged, pending.partial);
    return;
  }
  for (const cat of flagged) d.metrics.guardFlags.inc({ category: cat, mode: cfg.mode });
  if (flagged.length > 0) {
    st.guardrails = 'blocked';
    d.log.info('guardrail blocked', { request_id: st.id, categories: flagged.join(',') });
    throw new GatewayError('guardrail_blocked', {
      message: blockedMessage(flagged),
      headers: { 'x-svc-guardrails': 'blocked' },
    });
  }
  st.guardrails = pending.partial ? 'partial' : 'pass';
}

/** The categories whose score is at or over its threshold. */
function overThreshold(scores: Readonly<Record<GuardCategory, number>>, thresholds: Readonly<Record<GuardCategory, number>>): GuardCategory[] {
  return GUARD_CATEGORIES.filter((cat) => scores[cat] >= thresholds[cat]);
}

/** Monitor mode: what enforce would have refused, counted per category and logged. */
function reportMonitorHits(
  d: Pick<InspectDeps, 'metrics' | 'log'>,
  requestId: string,
  scores: Readonly<Record<GuardCategory, number>>,
  thresholds: Readonly<Record<GuardCategory, number>>,
  flagged: readonly GuardCategory[],
  partial: boolean,
): void {
  if (flagged.length === 0) return;
  for (const cat of flagged) d.metrics.guardFlags.inc({ category: cat, mode: 'monitor' });
  d.log.info('guardrail monitor hit', {
    request_id: requestId,
    categories: flagged.join(','),
    scores: flagged.map((c) => `${c}=${scores[c].toFixed(3)}/${thresholds[c]}`).join(','),
    partial,
  });
}

/**
 * The second stage's verdict for the uncertain categories (the first stage's for every other one). Bounded by
 * what is left of guardrails.timeoutMs; without an answer in time, the first stage's verdict stands. A call that
 * answered is charged to the organization with the request (guardrails.secondStage.priceUsd).
 */
async function secondOpinion(
  d: InspectDeps,
  second: SecondStage,
  st: RequestState,
  pending: PendingInspection,
  scores: Readonly<Record<GuardCategory, number>>,
  thresholds: Readonly<Record<GuardCategory, number>>,
  flagged: GuardCategory[],
): Promise<GuardCategory[]> {
  const unsure = second.uncertain(scores, thresholds);
  if (unsure.length === 0) return flagged;
  const left = d.guardrails.timeoutMs - (performance.now() - pending.startedAt);
  const opinion = await second.ask(pending.scored, left);
  d.metrics.guardSecondStage.inc({ outcome: opinion.ok ? 'answered' : opinion.reason });
  if (!opinion.ok) {
    d.log.warn('guardrail second stage gave no verdict; the first stage stands', {
      request_id: st.id,
      reason: opinion.reason,
      detail: opinion.detail,
      categories: unsure.join(','),
    });
    return flagged;
  }
  st.guardCost += usdToNano(second.config.priceUsd);
  return GUARD_CATEGORIES.filter((c) => (unsure.includes(c) ? opinion.flagged.has(c) : flagged.includes(c)));
}

/** Stage 3a: scoring starts in the pool right after admission (no undo). */
export function startInspectionStage(d: InspectDeps): Stage<TextFlow> {
  return {
    name: 'start-inspection',
    run(f) {
      f.pending = startInspection(d, f.p.texts, f.orgId, f.p.untrusted);
    },
  };
}

/** Stage 3b: the verdict, after routing (no undo). */
export function inspectStage(d: InspectDeps): Stage<TextFlow> {
  return {
    name: 'inspect',
    run: (f) => inspect(d, f.st, f.pending!),
  };
}
