import { performance } from 'node:perf_hooks';
import { formatUsd } from '../billing/money.js';
import { billedTokens } from '../billing/price.js';
import type { HeaderList } from '../server/types.js';
import type { RequestState } from './state.js';

/** Stamps the time to first byte once and returns it. */
export function latencyOf(st: RequestState): number {
  st.latencyMs ??= Math.max(0, Math.round(performance.now() - st.req.startedAt));
  return st.latencyMs;
}

/**
 * `x-svc-request-id` plus the same value where each official SDK looks for it: `x-request-id` (the OpenAI
 * SDK's `request_id` / `_request_id`) and `request-id` (the Anthropic SDK's `_request_id` and error ids).
 */
export function requestIdHeaders(id: string): HeaderList {
  return { 'x-svc-request-id': id, 'x-request-id': id, 'request-id': id };
}

/**
 * The contract's common response headers that apply to this response. `served` marks a provider answer
 * (model, routing, attempts, cost status); refusals carry only id, latency and the refusal's own headers.
 * `contentType` and `cacheControl` end the same object (no second copy of it per response).
 *
 * One object literal with every name in a fixed order, absent ones `undefined` (never written by the sink):
 * adding names one by one, in an order that depends on the request, walked V8's map transitions on every
 * response (5% of the event loop's CPU in the load bench), and the spread copies that followed doubled it.
 */
export function commonHeaders(st: RequestState, served: boolean, contentType?: string, cacheControl?: string): HeaderList {
  const id = st.id;
  const latency = String(latencyOf(st));
  const u = served ? st.usage : null;
  const cost = served && st.priced && st.cost !== null ? formatUsd(st.cost) : undefined;
  const p = st.principal;
  const legacy = p?.legacy === true;
  return {
    'x-svc-request-id': id,
    'x-request-id': id,
    'request-id': id,
    'x-svc-latency-ms': latency,
    'x-svc-guardrails': st.guardrails ?? undefined,
    'x-svc-response-cache': st.responseCache ?? undefined,
    'x-svc-compression': served && st.compression !== null ? st.compression : undefined,
    'x-svc-model': (served && st.servedModel) || undefined,
    'x-svc-routing': (served && st.routing) || undefined,
    'x-svc-attempts': served && st.attempts > 0 ? String(st.attempts) : undefined,
    'x-svc-max-tokens-clamped': served && st.maxTokensClamped !== null ? String(st.maxTokensClamped) : undefined,
    'x-svc-cost-status': served ? (st.priced ? 'exact' : 'unpriced') : undefined,
    'x-svc-request-cost': cost,
    'x-svc-input-tokens': u ? String(u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens) : undefined,
    'x-svc-output-tokens': u ? String(u.outputTokens) : undefined,
    'x-svc-total-tokens': u ? String(billedTokens(u)) : undefined,
    'x-svc-cache-read-tokens': u && u.cacheReadTokens > 0 ? String(u.cacheReadTokens) : undefined,
    'x-svc-cache-write-tokens': u && u.cacheWriteTokens > 0 ? String(u.cacheWriteTokens) : undefined,
    'x-svc-budget-warning': served ? budgetWarning(st) : undefined,
    'x-legacy-request-id': legacy ? id : undefined,
    'x-legacy-latency-ms': legacy ? latency : undefined,
    'x-legacy-request-cost': legacy ? cost : undefined,
    'x-legacy-org-id': legacy ? p.org.id : undefined,
    'x-legacy-key-alias': legacy ? p.alias : undefined,
    'content-type': contentType,
    'cache-control': cacheControl,
  };
}

function budgetWarning(st: RequestState): string | undefined {
  const b = st.budget;
  if (!b) return undefined;
  const spent = b.spent + (st.cost ?? 0);
  if (spent < b.limit * b.warnAt) return undefined;
  return `Key spend $${formatUsd(spent)} crossed ${Math.round(b.warnAt * 100)}% of its $${formatUsd(b.limit)} budget.`;
}
