import { randomUUID } from 'node:crypto';
import { SettlementQueue } from './billing/settlement.js';
import type { SettlementJournal } from './billing/settlement-journal.js';
import { GUARD_CATEGORIES, type GatewayConfig, type GuardCategory } from './config/schema.js';
import { GatewayError } from './errors/gateway-error.js';
import { Logger } from './obs/logger.js';
import { watchEventLoop } from './obs/event-loop.js';
import { Metrics } from './obs/metrics.js';
import { metricsHandler } from './obs/metrics-route.js';
import { Authenticator, DEGRADED_KEY_CACHE_TTL_MS } from './pipeline/authenticate.js';
import { countTokensHandler } from './pipeline/count-tokens-handler.js';
import { canonicalFrontEnd, chatFrontEnd, completionsFrontEnd } from './pipeline/front-ends.js';
import { inferenceHandler } from './pipeline/inference-handler.js';
import { chatFormat } from './formats/chat-completions/index.js';
import { completionsFormat } from './formats/completions/index.js';
import { messagesFormat } from './formats/messages/index.js';
import { responsesFormat } from './formats/responses/index.js';
import { EndpointHealth, endpointKey } from './routing/health.js';
import { HealthSync } from './routing/health-sync.js';
import type { GatewayDeps } from './pipeline/deps.js';
import { listModelsHandler, modelDetailHandler } from './pipeline/models-handler.js';
import { requestIdHeaders } from './pipeline/response-headers.js';
import { responsesFrontEnd } from './pipeline/responses-front-end.js';
import { retrieveResponseHandler } from './pipeline/responses-retrieve-handler.js';
import { ResponsesStore } from './responses-store/responses-store.js';
import { modelFromShared } from './guard/shared-model.js';
import { InlineScorer } from './pool/inline-scorer.js';
import { SLICE_CHARS, SlicedScorer } from './pool/sliced-scorer.js';
import { runSteps, scoreInSteps } from './guard/sliced.js';
import { WorkerPool } from './pool/pool.js';
import { loadSharedModel } from '../workers/guard.js';
import { ScoreBatcher } from './pool/score-batcher.js';
import { ScoreCache } from './pool/score-cache.js';
import { Catalog } from './routing/catalog.js';
import { startServer, type RunningServer } from './server/app.js';
import type { Store } from './store/contract.js';
import { invalidationBus } from './store/index.js';
import { createUpstreamAgent } from './upstream/client.js';

export interface Gateway {
  port: number;
  deps: GatewayDeps;
  healthSync: HealthSync;
  /** Where guardrail scoring runs, for the start-up banner: the mode, then the event loop's bound or why there is none. */
  guardrails: string;
  /** Replaces the catalog (hot reload); the models listing and ETags follow. */
  setCatalog(catalog: Catalog): void;
  close(): Promise<void>;
}

/** Fallback thresholds when neither config nor the scorer's model file gives one. */
const DEFAULT_THRESHOLD = 0.5;

/**
 * The thresholds in force (config over the model file's own) and, unless guardrails are off or inline scoring is
 * disabled, the event loop's scorers: of short texts at once, and of longer ones in slices (unless
 * guardrails.loopBacklogChars is 0). The model is loaded here, on the event loop before the gateway
 * listens (~140 ms), and its tables are shared with every scoring thread, which then starts without a parse.
 * Without a model, enforcing requests are refused 503 by the pool path as before.
 */
async function loadGuard(
  config: GatewayConfig,
  pool: WorkerPool,
  log: Logger,
): Promise<{ thresholds: Record<GuardCategory, number>; inline: InlineScorer | null; sliced: SlicedScorer | null; summary: string }> {
  let fromModel: Record<string, number> = {};
  let inline: InlineScorer | null = null;
  let sliced: SlicedScorer | null = null;
  let loaded = false;
  try {
    const { shared, thresholds: fileCuts } = loadSharedModel(guardWorkerEnv(config.guardrails.thresholds).env?.SVC_GUARD_CUTS);
    fromModel = fileCuts;
    const { mode, inlineMaxChars, loopBacklogChars } = config.guardrails;
    if (shared !== null && mode !== 'off' && inlineMaxChars > 0) {
      const model = modelFromShared(shared);
      inline = new InlineScorer(model, inlineMaxChars);
      if (loopBacklogChars > 0) sliced = new SlicedScorer(model, loopBacklogChars);
    }
    loaded = true;
    // From here scoring threads start on demand (beyond workers.min) with this model, reading its tables from shared
    // memory instead of parsing the file.
    if (shared !== null) {
      void pool.adoptModel(shared, config.workers.min).catch((e: unknown) => log.warn('scoring pool swap failed', { error: (e as Error).message }));
    }
    if (mode !== 'off') warmScoring(pool, inline, sliced, config.workers.min > 0);
  } catch (e) {
    if (config.guardrails.mode !== 'off') {
      log.warn('guardrail model unavailable: enforcing requests will be refused 503 until it is built', {
        error: (e as Error).message,
      });
    }
  }
  const thresholds = {} as Record<GuardCategory, number>;
  for (const c of GUARD_CATEGORIES) thresholds[c] = config.guardrails.thresholds[c] ?? fromModel[c] ?? DEFAULT_THRESHOLD;
  const mode = config.guardrails.mode;
  const { min, max } = config.workers;
  const threads = min === 0 ? `up to ${max} scoring thread${max === 1 ? '' : 's'}, started on demand` : `${min}-${max} scoring threads, ${min} kept`;
  const summary =
    mode === 'off'
      ? 'off'
      : !loaded
        ? `${mode} (model unavailable: build it with make guard-model)`
        : inline !== null && sliced !== null
          ? `${mode} (texts up to ${inline.maxChars} characters per request scored on the event loop at once, longer ones there in ~2 KB slices while at most ${sliced.backlogChars} characters wait, the rest in the worker pool; ${threads})`
          : inline !== null
          ? `${mode} (texts up to ${inline.maxChars} characters per request scored on the event loop, longer ones in the worker pool; ${threads})`
          : `${mode} (scored in the worker pool; ${threads})`;
  return { thresholds, inline, sliced, summary };
}

/** Prose for the scorer's warm-up: ~3,000 characters, so the windowed path of long texts runs too. */
const WARM_TEXT = Array.from(
  { length: 24 },
  (_, i) => `Paragraph ${i}: the quarterly report lists revenue by region, the open support tickets and the release plan for the next sprint.`,
).join(' ');

/**
 * Scores once before traffic, so the first requests after a start do not pay for compiling the scorer: in a fresh
 * thread the first 16 KiB document took 59 ms and the next four 7-15 ms each against 0.6-1 ms once warm, and a burst
 * right after a restart (thousands of clients reconnecting) meets the 250 ms scoring deadline with that much less
 * capacity. The worker's task (only when workers.min keeps threads: otherwise it would start one) is not awaited
 * (start-up does not wait for it; a request queues behind it at worst).
 */
function warmScoring(pool: WorkerPool, inline: InlineScorer | null, sliced: SlicedScorer | null, threadsKept: boolean): void {
  if (threadsKept) void pool.run('score', { texts: [WARM_TEXT] }, { tenant: '' }).catch(() => undefined);
  for (let i = 0; i < 32 && inline !== null; i++) inline.scoreIfShort([WARM_TEXT.slice(0, 64 + 24 * i)]);
  // the sliced path's steps, run through here so that a first document does not pay for their compile
  for (let i = 0; i < 8 && sliced !== null; i++) runSteps(scoreInSteps(sliced.model, WARM_TEXT.slice(0, 1500 + 200 * i), SLICE_CHARS));
}

/**
 * The scoring workers' extra environment: the operator's per-category cuts (config `guardrails.thresholds`) as
 * SVC_GUARD_CUTS, from which each worker sets the sub-category rules and the sexual/minors cap
 * (workers/guard.ts applyCutOverrides); nothing when the model file's own cuts are in force.
 */
export function guardWorkerEnv(thresholds: GatewayConfig['guardrails']['thresholds']): { env?: Record<string, string> } {
  return Object.keys(thresholds).length > 0 ? { env: { SVC_GUARD_CUTS: JSON.stringify(thresholds) } } : {};
}

/** Wires config -> store -> pool -> servers. The store is created by the caller (main or a test). */
export async function startGateway(
  config: GatewayConfig,
  store: Store,
  opts: { env?: NodeJS.ProcessEnv; logger?: Logger; journal?: SettlementJournal | null } = {},
): Promise<Gateway> {
  const log = opts.logger ?? new Logger(config.log.level, config.log.json);
  const metrics = new Metrics();
  const loop = watchEventLoop(metrics);
  let catalog = new Catalog(config.models, config.aliases);
  const pool = new WorkerPool({ ...config.workers, ...guardWorkerEnv(config.guardrails.thresholds) });
  const health = new EndpointHealth(config.health);
  const healthSync = new HealthSync(
    store,
    health,
    () => [...new Set(catalog.models.flatMap((m) => m.endpoints.map(endpointKey)))],
    config.health.cooldownMs,
    log,
  );
  healthSync.start(config.health.syncMs);
  const settlement = new SettlementQueue(store, { ...config.settlement, journal: opts.journal ?? null }, log, () => metrics.settlementFailures.inc());
  metrics.gauges.push(() => health.renderMetrics());
  metrics.gauge('svc_settlement_pending', 'Settlement entries queued.', () => settlement.pending);
  const scorer = new ScoreCache(new ScoreBatcher(pool, config.guardrails.timeoutMs));
  metrics.gauge('svc_guard_score_cache_hits', 'Texts whose guardrail scores came from the score cache (no pool task).', () => scorer.hits);
  metrics.gauge('svc_guard_score_cache_misses', 'Texts not in the score cache (scored on the event loop or in the worker pool).', () => scorer.misses);
  metrics.gauge('svc_guard_scored_inline', 'Texts scored on the event loop (short; guardrails.inlineMaxChars), not in the worker pool.', () => scorer.inlined);
  metrics.gauge('svc_guard_scored_sliced', 'Longer texts scored on the event loop in slices (guardrails.loopBacklogChars), not in the worker pool.', () => scorer.sliced?.scored ?? 0);
  metrics.gauge('svc_guard_sliced_backlog_chars', 'Characters waiting to be scored on the event loop in slices.', () => scorer.sliced?.backlog ?? 0);
  metrics.gauge('svc_pool_threads', 'Live worker threads (scoring and tokenizer; started on demand, ~20 MiB resident each).', () => pool.threads);
  metrics.gauge('svc_pool_threads_started', 'Worker threads started since the process started.', () => pool.workersCreated);
  const deps: GatewayDeps = {
    config,
    store,
    catalog: () => catalog,
    health,
    pool,
    scorer,
    auth: new Authenticator(store, config.keyCacheTtlMs),
    agent: createUpstreamAgent(config.upstream),
    settlement,
    log,
    metrics,
    env: opts.env ?? process.env,
  };
  // Key-cache invalidation from the dashboard and the CLI (every node at once); while the subscription is
  // down the key cache falls back to a short TTL.
  const auth = deps.auth;
  auth.onLink(false); // short TTL until the subscription is confirmed (at once on the embedded store)
  let linkedOnce = false;
  const unsubscribe = invalidationBus(store).subscribe({
    onInvalidate: (msg) => auth.onInvalidate(msg),
    onLink: (up) => {
      auth.onLink(up);
      if (!up) log.warn(`key-cache invalidation subscription lost: key cache TTL ${DEGRADED_KEY_CACHE_TTL_MS} ms until it is back`);
      else if (linkedOnce) log.info('key-cache invalidation subscription restored: key cache TTL back to normal');
      linkedOnce ||= up;
    },
  });
  const { thresholds, inline, sliced, summary: guardrails } = await loadGuard(config, pool, log);
  scorer.inline = inline;
  scorer.sliced = sliced;
  const th = (): Record<GuardCategory, number> => thresholds;
  const responsesStore = new ResponsesStore(store, config.responses.ttlMs, config.responses.maxPerOrg);
  let server: RunningServer | null = null;
  server = await startServer({
    host: config.host,
    port: config.port,
    maxBodyBytes: config.maxBodyBytes,
    errorHeaders: () => requestIdHeaders(randomUUID()),
    onRequest: loop.wake,
    onHandlerError: (err, _req, res) => {
      log.error('handler failed', { error: (err as Error)?.stack ?? String(err) });
      const ge = new GatewayError('internal_error');
      res.send(500, { ...requestIdHeaders(randomUUID()), 'content-type': 'application/json' }, JSON.stringify(ge.toBody()));
    },
    routes: [
      { method: 'POST', pattern: '/v1/chat/completions', handler: inferenceHandler(deps, th, chatFrontEnd(chatFormat)) },
      {
        method: 'POST',
        pattern: '/v1/completions',
        handler: inferenceHandler(deps, th, completionsFrontEnd(completionsFormat)),
      },
      {
        method: 'POST',
        pattern: '/v1/responses',
        handler: inferenceHandler(deps, th, responsesFrontEnd(responsesFormat, responsesStore, (err) => log.error('storing a response failed', { error: String(err) }))),
      },
      {
        method: 'POST',
        pattern: '/v1/messages',
        handler: inferenceHandler(deps, th, canonicalFrontEnd('/v1/messages', 'messages', messagesFormat, true)),
      },
      { method: 'POST', pattern: '/v1/messages/count_tokens', handler: countTokensHandler(deps) },
      { method: 'GET', pattern: '/v1/models', handler: listModelsHandler(deps) },
      { method: 'GET', pattern: '/v1/models/*', handler: modelDetailHandler(deps) },
      { method: 'GET', pattern: '/v1/responses/*', handler: retrieveResponseHandler(deps, responsesStore) },
      { method: 'GET', pattern: '/metrics', handler: metricsHandler(metrics, deps.env.SVC_METRICS_TOKEN) },
      {
        method: 'GET',
        pattern: '/healthz',
        handler: async (_req, res) => {
          const ok = await store.ping(500);
          res.send(ok ? 200 : 503, { 'content-type': 'application/json' }, JSON.stringify({ ok, store: store.kind, pid: process.pid }));
        },
      },
    ],
  });
  const running = server;
  return {
    port: running.port,
    deps,
    healthSync,
    guardrails,
    setCatalog(c: Catalog) {
      catalog = c;
    },
    async close() {
      healthSync.stop();
      loop.stop();
      running.close();
      // Requests in flight complete (and queue their settlement) before the queue is flushed and closed.
      if (!(await running.drain(config.shutdownGraceMs))) log.warn('shutdown: requests still in flight after the grace period');
      await settlement.close();
      await pool.close();
      await deps.agent.close();
      await unsubscribe();
    },
  };
}
