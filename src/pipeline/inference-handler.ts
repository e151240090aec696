import { performance } from 'node:perf_hooks';
import { framingTokens, promptSize, typicalTokens, upperBoundTokens } from '../billing/estimate.js';
import type { GuardCategory, ModelPricing } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { EncodeContext } from '../formats/format.js';
import type { UpstreamHttpRequest } from '../providers/adapter.js';
import type { Handler } from '../server/types.js';
import { admit, releaseAdmission } from './admit.js';
import { buildChain, type Candidate } from './chain.js';
import { checkControlReferences, compressionVerdict, takeControlFields, takeMessageControls } from './control-fields.js';
import type { GatewayDeps } from './deps.js';
import { execute } from './execute.js';
import { record, sendError, settle } from './finish.js';
import type { FrontEnd } from './front-end.js';
import { inspect, startInspection } from './inspect.js';
import { parseJsonBody } from './json-body.js';
import { releaseHold, reserve } from './reserve.js';
import { serveCanonicalJson, serveCanonicalStream } from './serve-canonical.js';
import { serveJson, serveStream } from './serve-chat.js';
import { RequestState } from './state.js';
import { parseTags } from './tags.js';
import { resolveRoute } from '../routing/resolve.js';
import { classifyPrompt } from './classify.js';

/**
 * One handler for every text inference route: the preflight chain in the contract's order (auth ->
 * admission -> inspection -> hold), then the routing chain. An OpenAI-format client reaching an
 * OpenAI-compatible upstream gets the byte passthrough; every other pairing goes through the canonical model.
 */
export function inferenceHandler(deps: GatewayDeps, thresholds: () => Record<GuardCategory, number>, fe: FrontEnd): Handler {
  return async (req, res) => {
    const st = new RequestState(req);
    let admitted = false;
    try {
      const ctype = req.headers.get('content-type') ?? '';
      if (!ctype.toLowerCase().startsWith('application/json')) {
        throw new GatewayError('invalid_request', { message: 'Content-Type must be application/json.' });
      }
      st.principal = await deps.auth.authenticate(req, fe.route, fe.allowXApiKey);
      const { key, org } = st.principal;
      const { json: body, modelSpan } = parseJsonBody(req.body, deps.config.maxJsonDepth);
      const { fields, touched: topLevel } = takeControlFields(body, fe.shape);
      const touched = takeMessageControls(body) || topLevel;
      checkControlReferences(fields);
      st.compression = compressionVerdict(req.headers.get('x-svc-compress'), key.neverCompress);
      // There is no response cache yet: a cacheable route reports every answer as a miss, or bypass on request.
      if (!fields.cache) st.responseCache = 'bypass';
      else if (fe.cacheable) st.responseCache = 'miss';
      const p = fe.prepare(body, req.body, touched, modelSpan);
      st.requestedModel = p.model;
      st.user = p.user;
      st.tags = parseTags(req.headers.get('x-svc-tags'));

      const size = promptSize(p.texts, p.messageCount);
      const route = await resolveRoute(deps.catalog(), key, org, p.model, fields.fallbacks, typicalTokens(size), () =>
        classifyPrompt(deps, p.canonical(), typicalTokens(size)),
      );
      const model = route.primary;
      if (p.maxTokens !== null && p.maxTokens > model.maxOutput) {
        throw new GatewayError('max_output_tokens_too_large', {
          message: `Requested output ${p.maxTokens} exceeds ${model.id}'s maximum output of ${model.maxOutput}.`,
        });
      }
      const maxOut = p.maxTokens ?? model.maxOutput;
      let exact: Promise<number> | null = null;
      const exactTokens = (): Promise<number> =>
        (exact ??= deps.pool.run('countTokens', { texts: p.texts }).then((n) => n + framingTokens(p.messageCount)));
      if (upperBoundTokens(size) > model.contextLength && (await exactTokens()) > model.contextLength) {
        throw new GatewayError('input_too_large', { message: `The prompt exceeds ${model.id}'s context of ${model.contextLength} tokens.` });
      }
      const chain = buildChain(route.entries, deps.health);

      const pending = startInspection(deps, p.texts, p.untrusted); // overlaps the admission round trip
      await admit(deps, st, typicalTokens(size));
      admitted = true;
      await inspect(deps, st, pending, thresholds());
      const pricings = [...new Set(chain.map((c) => c.model))].map((m) => m.pricing).filter((x): x is ModelPricing => x !== null);
      await reserve(deps, st, { pricings, maxOutput: maxOut * p.n, upperInputTokens: upperBoundTokens(size), exactInputTokens: exactTokens });

      const ac = new AbortController();
      res.onAbort(() => ac.abort());
      const passthrough = (c: Candidate): boolean => p.passthrough !== null && c.adapter.capabilities.chatPassthrough;
      // A router alias reports itself as the body's model (spliced into the passthrough bytes).
      const reportModel = route.alias ? route.alias.id : null;
      const requestFor = (c: Candidate): UpstreamHttpRequest => {
        if (passthrough(c)) {
          const { url, headers } = c.adapter.chatRequest(c.endpoint, deps.env);
          return { url, headers, body: p.passthrough!(c.endpoint.upstreamModel) };
        }
        const canonical = { ...p.canonical(), model: c.endpoint.upstreamModel };
        return c.adapter.buildRequest(canonical, c.endpoint, { env: deps.env, maxTokens: Math.min(maxOut, c.model.maxOutput), now: new Date() });
      };
      const sentAt = performance.now();
      const { candidate, response } = await execute(deps, st, chain, requestFor, ac.signal);
      const fallback = async (outputTokens: number) => ({
        inputTokens: await exactTokens(),
        outputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      });
      let outcome: 'ok' | 'aborted' | 'error' = 'ok';
      const idleMs = candidate.endpoint.timeouts?.idleMs ?? deps.config.upstream.idleMs;
      if (passthrough(candidate)) {
        if (p.stream) outcome = await serveStream(st, res, candidate, response, p.clientWantsStreamUsage, fallback, reportModel, idleMs);
        else await serveJson(st, res, candidate, response, fallback, reportModel);
      } else {
        // The body names the model used: the alias the client asked for, else the model that answered.
        const model = route.alias ? route.alias.id : candidate.model.id;
        const base: EncodeContext = { model, requestId: st.id, created: Math.floor(st.at / 1000), streamUsage: p.clientWantsStreamUsage };
        const ctx = p.encodeContext ? p.encodeContext(base) : base;
        if (p.stream) outcome = await serveCanonicalStream(st, res, candidate, response, fe.format, ctx, fallback, idleMs);
        else await serveCanonicalJson(st, res, candidate, response, fe.format, ctx);
      }
      if (outcome === 'ok' && st.usage) deps.health.completed(candidate.key, performance.now() - sentAt, st.usage.outputTokens);
      settle(deps, st, fe.route, outcome);
    } catch (err) {
      if (st.status === 0) {
        await releaseHold(deps, st);
        if (admitted) await releaseAdmission(deps, st);
        st.servedModel = null;
        sendError(deps, st, res, err);
      } else {
        settle(deps, st, fe.route, 'error');
      }
    } finally {
      if (res.backpressureEvents > 0) deps.metrics.backpressure.inc({ route: fe.route }, res.backpressureEvents);
      record(deps, st, fe.route);
    }
  };
}
