import { performance } from 'node:perf_hooks';
import { GUARD_CATEGORIES, type GatewayConfig, type GuardCategory } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../obs/logger.js';
import type { Metrics } from '../obs/metrics.js';
import type { ScoreBatcher } from '../pool/score-batcher.js';
import type { TextFlow } from './flow.js';
import type { Stage } from './stage.js';
import type { RequestState } from './state.js';

export interface InspectDeps {
  guardrails: GatewayConfig['guardrails'];
  scorer: Pick<ScoreBatcher, 'score'>;
  thresholds: () => Readonly<Record<GuardCategory, number>>;
  metrics: Pick<Metrics, 'guardMs'>;
  log: Pick<Logger, 'info' | 'warn'>;
}

export interface PendingInspection {
  scored: string[];
  /** Some prompt text was not inspected (over guardrails.maxChars). */
  partial: boolean;
  scoring: Promise<Record<string, number>[]> | null;
  startedAt: number;
}

/**
 * Starts scoring once admission has passed (a refused key never costs the pool anything), so the worker
 * round trip overlaps routing and the exact count; the verdict is applied by the inspect stage.
 */
export function startInspection(d: Pick<InspectDeps, 'guardrails' | 'scorer'>, texts: readonly string[], tenant: string): PendingInspection {
  const cfg = d.guardrails;
  const scored: string[] = [];
  let partial = false;
  if (cfg.mode === 'off') return { scored, partial, scoring: null, startedAt: 0 };
  let budget = cfg.maxChars;
  for (const t of texts) {
    if (t.length === 0) continue;
    if (budget <= 0) {
      partial = true;
      break;
    }
    if (t.length > budget) {
      // Keep both ends of an over-long text: injections hide at either end.
      const half = Math.floor(budget / 2);
      scored.push(t.slice(0, half) + '\n' + t.slice(t.length - half));
      partial = true;
    } else scored.push(t);
    budget -= t.length;
  }
  const scoring = scored.length > 0 ? d.scorer.score(scored, tenant) : null;
  scoring?.catch(() => {}); // awaited and reported by inspect(); never an unhandled rejection
  return { scored, partial, scoring, startedAt: performance.now() };
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
    d.metrics.guardMs.observe({}, performance.now() - pending.startedAt);
  }
  const flagged: string[] = [];
  for (const cat of GUARD_CATEGORIES) {
    let max = 0;
    for (const r of results) max = Math.max(max, r[cat] ?? 0);
    if (max >= thresholds[cat]) flagged.push(cat);
  }
  if (cfg.mode === 'monitor') {
    st.guardrails = 'monitor';
    if (flagged.length) d.log.info('guardrail monitor hit', { request_id: st.id, categories: flagged.join(',') });
    return;
  }
  if (flagged.length > 0) {
    st.guardrails = 'blocked';
    throw new GatewayError('guardrail_blocked', {
      message: `The request was blocked by content inspection (${flagged.join(', ')}).`,
      headers: { 'x-svc-guardrails': 'blocked' },
    });
  }
  st.guardrails = pending.partial ? 'partial' : 'pass';
}

/** Stage 3a: scoring starts in the pool right after admission (no undo). */
export function startInspectionStage(d: InspectDeps): Stage<TextFlow> {
  return {
    name: 'start-inspection',
    run(f) {
      f.pending = startInspection(d, f.p.texts, f.orgId);
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
