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
 */
export function commonHeaders(st: RequestState, served: boolean): HeaderList {
  const h: HeaderList = {
    ...requestIdHeaders(st.id),
    'x-svc-latency-ms': String(latencyOf(st)),
  };
  if (st.guardrails !== null) h['x-svc-guardrails'] = st.guardrails;
  if (st.responseCache !== null) h['x-svc-response-cache'] = st.responseCache;
  if (served && st.compression !== null) h['x-svc-compression'] = st.compression;
  if (served) {
    if (st.servedModel) h['x-svc-model'] = st.servedModel;
    if (st.routing) h['x-svc-routing'] = st.routing;
    if (st.attempts > 0) h['x-svc-attempts'] = String(st.attempts);
    if (st.maxTokensClamped !== null) h['x-svc-max-tokens-clamped'] = String(st.maxTokensClamped);
    h['x-svc-cost-status'] = st.priced ? 'exact' : 'unpriced';
    if (st.priced && st.cost !== null) h['x-svc-request-cost'] = formatUsd(st.cost);
    if (st.usage) {
      const u = st.usage;
      h['x-svc-input-tokens'] = String(u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens);
      h['x-svc-output-tokens'] = String(u.outputTokens);
      h['x-svc-total-tokens'] = String(billedTokens(u));
      if (u.cacheReadTokens > 0) h['x-svc-cache-read-tokens'] = String(u.cacheReadTokens);
      if (u.cacheWriteTokens > 0) h['x-svc-cache-write-tokens'] = String(u.cacheWriteTokens);
    }
    const b = st.budget;
    if (b) {
      const spent = b.spent + (st.cost ?? 0);
      if (spent >= b.limit * b.warnAt) {
        h['x-svc-budget-warning'] = `Key spend $${formatUsd(spent)} crossed ${Math.round(b.warnAt * 100)}% of its $${formatUsd(b.limit)} budget.`;
      }
    }
  }
  const p = st.principal;
  if (p?.legacy) {
    h['x-legacy-request-id'] = st.id;
    h['x-legacy-latency-ms'] = h['x-svc-latency-ms']!;
    if (h['x-svc-request-cost'] !== undefined) h['x-legacy-request-cost'] = h['x-svc-request-cost'];
    h['x-legacy-org-id'] = p.org.id;
    h['x-legacy-key-alias'] = p.alias;
  }
  return h;
}
