import { performance } from 'node:perf_hooks';
import type { GuardCategory } from '../config/schema.js';
import type { EncodeContext } from '../formats/format.js';
import type { UpstreamHttpRequest } from '../providers/adapter.js';
import type { Handler, ResponseSink } from '../server/types.js';
import { admitStage } from './admit.js';
import { authStage } from './authenticate.js';
import type { Candidate } from './chain.js';
import { decodeStage, jsonContentType } from './decode-stage.js';
import type { GatewayDeps } from './deps.js';
import { execute, type Answer } from './execute.js';
import { journalingSink, record, sendError, settle } from './finish.js';
import { TextFlow } from './flow.js';
import type { FrontEnd } from './front-end.js';
import { inspectStage, startInspectionStage } from './inspect.js';
import { SecondStage } from '../guard/second-stage.js';
import { holdStage } from './reserve.js';
import { exactInputTokens, resolveStage, routeStage } from './route-stage.js';
import { admitHoldStage } from './admit-hold.js';
import type { LimitStore, Store } from '../store/contract.js';
import { serveCanonicalJson, serveCanonicalStream } from './serve-canonical.js';
import { serveJson, serveStream } from './serve-chat.js';
import type { StreamOutcome } from './stream-writer.js';
import { deferRefusal, refuseDeferred, runStages, unwind, type Stage } from './stage.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { CallAbort } from '../upstream/call-abort.js';

/**
 * The text preflight chain in the contract's order: auth -> admission -> inspection -> hold. Admission runs
 * before anything that costs worker-pool CPU (svc/auto classification, exact counting, content scoring).
 * Two shapes, chosen once from what the store offers (README, "Request flow"):
 * - a store with one-round-trip admission + hold (Redis): the route is resolved first (no pool work), then
 *   admission and the byte-bound hold go in one round trip; the hold stage only finishes what did not fit;
 * - otherwise admission comes before the body is even parsed (unless per-user limits need its `user`
 *   field), so a refused key costs its authentication only.
 * Validation before admission (decode, resolve) defers its refusal until admission has passed, so a
 * revoked or rate-limited key gets 401/429 whatever its body says.
 */
export function textChain(deps: GatewayDeps, thresholds: () => Record<GuardCategory, number>): readonly Stage<TextFlow>[] {
  const { config, store, pool, log } = deps;
  const second = config.guardrails.secondStage;
  const secondStage = second ? new SecondStage(second, { agent: deps.agent, env: deps.env }) : null;
  const inspection = { guardrails: config.guardrails, scorer: deps.scorer, thresholds, metrics: deps.metrics, log, secondStage };
  const admitDeps = { store, auth: deps.auth, limits: config.limits, leaseTtlMs: config.leases.ttlMs, log };
  const holdDeps = { store, pool, holdTtlMs: config.holds.ttlMs, log };
  const routeDeps = { catalog: deps.catalog, health: deps.health, pool };
  const decode = deferRefusal(decodeStage(config.maxJsonDepth), isGatewayError);
  const tail = [refuseDeferred, startInspectionStage(inspection), routeStage(routeDeps), inspectStage(inspection), holdStage(holdDeps)];
  if (oneRoundTrip(store)) {
    const admitHold = admitHoldStage({ ...admitDeps, ...holdDeps, store });
    return [jsonContentType, authStage(deps.auth), decode, deferRefusal(resolveStage(routeDeps), isGatewayError), admitHold, ...tail];
  }
  const admit = admitStage(admitDeps);
  const userScoped = config.limits.userRpm !== null || config.limits.userTpm !== null;
  return [jsonContentType, authStage(deps.auth), ...(userScoped ? [decode, admit] : [admit, decode]), ...tail];
}

function oneRoundTrip(store: Store): store is Store & Required<Pick<LimitStore, 'admitAndHold'>> {
  return typeof store.admitAndHold === 'function';
}

/**
 * One handler for every text inference route: the preflight chain, then the routing chain. An OpenAI-format
 * client reaching an OpenAI-compatible upstream gets the byte passthrough; every other pairing (and a
 * request whose output cap the hold lowered) goes through the canonical model.
 * A refusal, or an upstream failure before any answer, is answered first; then the stages that ran are
 * undone (hold, then leases). Once an answer is being served, settlement owns the hold and the leases.
 */
export function inferenceHandler(deps: GatewayDeps, thresholds: () => Record<GuardCategory, number>, fe: FrontEnd): Handler {
  const chain = textChain(deps, thresholds);
  return async (req, res) => {
    const f = new TextFlow(req, fe);
    const st = f.st;
    /** How the answer ended, once one was served (settlement owns the hold then); null for a refusal or failure. */
    let outcome: StreamOutcome | null = null;
    try {
      let answer;
      const ac = new CallAbort();
      try {
        await runStages(chain, f);
        res.onAbort(() => ac.abort());
        answer = await execute(deps, st, f.chain!, (c) => upstreamRequest(deps, f, c), ac);
      } catch (err) {
        st.servedModel = null;
        sendError(deps, st, res, err);
        await unwind(chain, f);
        return;
      }
      outcome = await serve(deps, chain, f, res, answer.candidate, answer.response);
    } finally {
      // The answer's last bytes wait for the settlement journal's group commit at the end of this turn: what follows
      // runs after that write, so it does not delay them (the provisional record is already in the journal).
      deps.settlement.afterAnswer(() => {
        if (outcome !== null) settle(deps, st, fe.route, outcome);
        if (res.backpressureEvents > 0) deps.metrics.backpressure.inc({ route: fe.route }, res.backpressureEvents);
        record(deps, st, fe.route);
      });
    }
  };
}

function passthrough(f: TextFlow, c: Candidate): boolean {
  return f.p.passthrough !== null && c.adapter.capabilities.chatPassthrough && f.clamped === null;
}

function upstreamRequest(deps: GatewayDeps, f: TextFlow, c: Candidate): UpstreamHttpRequest {
  if (passthrough(f, c)) {
    const { url, headers } = c.adapter.chatRequest(c.endpoint, deps.env);
    return { url, headers, body: f.p.passthrough!(c.endpoint.upstreamModel) };
  }
  const canonical = { ...f.p.canonical(), model: c.endpoint.upstreamModel };
  return c.adapter.buildRequest(canonical, c.endpoint, { env: deps.env, maxTokens: Math.min(f.maxOut, c.model.maxOutput), now: new Date(), storageBuckets: f.st.principal?.org.storageBuckets ?? [] });
}

/**
 * Execution's second half: the answer to the client in its format. Returns how it ended, for settlement (whatever
 * happens), or null when nothing reached the client and a failure was answered instead (the preflight is undone).
 */
async function serve(
  deps: GatewayDeps,
  chain: readonly Stage<TextFlow>[],
  f: TextFlow,
  res: ResponseSink,
  candidate: Candidate,
  response: Answer['response'],
): Promise<StreamOutcome | null> {
  const { st, p, fe } = f;
  const sentAt = performance.now();
  const fallback = async (outputTokens: number) => ({
    inputTokens: await exactInputTokens(deps.pool, f),
    outputTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
  let outcome: StreamOutcome = 'ok';
  const out = journalingSink(deps, st, fe.route, res); // settlement is on disk before the last byte leaves
  try {
    const idleMs = candidate.endpoint.timeouts?.idleMs ?? deps.config.upstream.idleMs;
    const alias = f.resolved.alias;
    if (passthrough(f, candidate)) {
      // A router alias reports itself as the body's model (spliced into the passthrough bytes).
      const reportModel = alias ? alias.id : null;
      if (p.stream) outcome = await serveStream(st, out, candidate, response, p.clientWantsStreamUsage, fallback, reportModel, idleMs);
      else await serveJson(st, out, candidate, response, fallback, reportModel);
    } else {
      // The body names the model used: the alias the client asked for, else the model that answered.
      const base: EncodeContext = { model: alias ? alias.id : candidate.model.id, requestId: st.id, created: Math.floor(st.at / 1000), streamUsage: p.clientWantsStreamUsage };
      if (p.stream && fe.shape === 'messages') base.promptTokens = await exactInputTokens(deps.pool, f); // message_start usage
      const ctx = p.encodeContext ? p.encodeContext(base) : base;
      if (p.stream) outcome = await serveCanonicalStream(st, out, candidate, response, fe.format, ctx, fallback, idleMs);
      else await serveCanonicalJson(st, out, candidate, response, fe.format, ctx);
    }
  } catch (err) {
    if (st.status === 0) {
      // Nothing reached the client (e.g. an unparseable upstream body): a failure like any before the answer.
      st.servedModel = null;
      sendError(deps, st, res, err);
      await unwind(chain, f);
      return null;
    }
    outcome = 'error';
  }
  if (outcome === 'ok' && st.usage) deps.health.completed(candidate.key, performance.now() - sentAt, st.usage.outputTokens);
  return outcome;
}
