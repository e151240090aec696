import { promptSize, typicalTokens, upperBoundTokens, framingTokens } from '../billing/estimate.js';
import type { GuardCategory, ModelPricing } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import { validateChat } from '../formats/chat-completions/validate.js';
import type { Handler } from '../server/types.js';
import { admit, releaseAdmission } from './admit.js';
import { buildChain, type Candidate } from './chain.js';
import { takeControlFields } from './control-fields.js';
import type { GatewayDeps } from './deps.js';
import { execute } from './execute.js';
import { record, sendError, settle } from './finish.js';
import { inspect } from './inspect.js';
import { parseJsonObject } from './json-body.js';
import { releaseHold, reserve } from './reserve.js';
import { serveJson, serveStream } from './serve-chat.js';
import { RequestState } from './state.js';
import { parseTags } from './tags.js';

const ROUTE = '/v1/chat/completions';

/** POST /v1/chat/completions: the preflight chain in the contract's order, then the byte passthrough. */
export function chatCompletionsHandler(deps: GatewayDeps, thresholds: () => Record<GuardCategory, number>): Handler {
  return async (req, res) => {
    const st = new RequestState(req);
    let admitted = false;
    try {
      const ctype = req.headers.get('content-type') ?? '';
      if (!ctype.toLowerCase().startsWith('application/json')) {
        throw new GatewayError('invalid_request', { message: 'Content-Type must be application/json.' });
      }
      st.principal = await deps.auth.authenticate(req, ROUTE);
      const { key, org } = st.principal;
      const body = parseJsonObject(req.body, deps.config.maxJsonDepth);
      const { fields, touched } = takeControlFields(body, 'chat');
      const chat = validateChat(body);
      st.requestedModel = chat.model;
      st.user = chat.user;
      st.tags = parseTags(req.headers.get('x-svc-tags'));

      const catalog = deps.catalog();
      const model = catalog.routable(chat.model, key);
      if (!model) throw new GatewayError('model_not_found', { message: `The model ${chat.model} does not exist or is not available.` });
      if (chat.maxTokens !== null && chat.maxTokens > model.maxOutput) {
        throw new GatewayError('max_output_tokens_too_large', {
          message: `max_tokens ${chat.maxTokens} exceeds ${model.id}'s maximum output of ${model.maxOutput}.`,
        });
      }
      const maxOut = chat.maxTokens ?? model.maxOutput;
      const tools = body.tools ? JSON.stringify(body.tools) : '';
      const size = promptSize(chat.texts, chat.messageCount, Buffer.byteLength(tools));
      let exact: Promise<number> | null = null;
      const exactTokens = (): Promise<number> =>
        (exact ??= deps.pool
          .run('countTokens', { texts: tools ? [...chat.texts, tools] : chat.texts })
          .then((n) => n + framingTokens(chat.messageCount)));
      if (upperBoundTokens(size) > model.contextLength && (await exactTokens()) > model.contextLength) {
        throw new GatewayError('input_too_large', { message: `The prompt exceeds ${model.id}'s context of ${model.contextLength} tokens.` });
      }
      const chain = buildChain(catalog, key, model, fields.fallbacks, org.fallbacks);

      await admit(deps, st, typicalTokens(size));
      admitted = true;
      await inspect(deps, st, chat.texts, thresholds());
      const pricings = [...new Set(chain.map((c) => c.model))].map((m) => m.pricing).filter((p): p is ModelPricing => p !== null);
      await reserve(deps, st, {
        pricings,
        maxOutput: maxOut * chat.n,
        upperInputTokens: upperBoundTokens(size),
        exactInputTokens: exactTokens,
      });

      const ac = new AbortController();
      res.onAbort(() => ac.abort());
      const streamUsage = chat.stream && !chat.clientWantsStreamUsage;
      const requestFor = (c: Candidate) => {
        const { url, headers } = c.adapter.chatRequest(c.endpoint, deps.env);
        if (!touched && !streamUsage && c.endpoint.upstreamModel === chat.model) return { url, headers, body: req.body }; // byte fast path
        const out: Record<string, unknown> = { ...body, model: c.endpoint.upstreamModel };
        if (chat.stream) out.stream_options = { ...(body.stream_options as object | undefined), include_usage: true };
        return { url, headers, body: JSON.stringify(out) };
      };
      const answer = await execute(deps, st, chain, requestFor, ac.signal);
      const fallback = async (outputTokens: number) => ({
        inputTokens: await exactTokens(),
        outputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      });
      if (chat.stream) {
        const outcome = await serveStream(st, res, answer.candidate, answer.response, chat.clientWantsStreamUsage, fallback);
        settle(deps, st, ROUTE, outcome);
      } else {
        await serveJson(st, res, answer.candidate, answer.response, fallback);
        settle(deps, st, ROUTE, 'ok');
      }
    } catch (err) {
      if (st.servedModel === null || st.status === 0) {
        await releaseHold(deps, st);
        if (admitted) await releaseAdmission(deps, st);
        if (st.servedModel !== null) st.servedModel = null;
        sendError(deps, st, res, err);
      } else {
        settle(deps, st, ROUTE, 'error');
      }
    } finally {
      record(deps, st, ROUTE);
    }
  };
}
