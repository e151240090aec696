import { formatUsd } from '../billing/money.js';
import { billedTokens, costOf, type TokenUsage } from '../billing/price.js';
import type { Candidate } from './chain.js';
import type { RequestState } from './state.js';

/** Prices a served request at the list price of the model that answered, plus a guardrail second stage's call. */
export function price(st: RequestState, c: Candidate, usage: TokenUsage): void {
  st.usage = usage;
  st.priced = c.model.pricing !== null;
  st.cost = c.model.pricing ? costOf(c.model.pricing, usage) + st.guardCost : null;
}

/** Usage when the upstream reported none: our exact prompt count and the tokens we saw emitted. */
export type FallbackUsage = (outputTokens: number) => Promise<TokenUsage>;

/**
 * The SSE comment that carries a stream's exact cost and tokens (headers left before they were known).
 * SSE clients ignore comment lines.
 */
export function usageComment(st: RequestState): string {
  const u = st.usage;
  if (!u) return '';
  const out: Record<string, string | number> = {
    cost_status: st.priced ? 'exact' : 'unpriced',
    input_tokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    output_tokens: u.outputTokens,
    total_tokens: billedTokens(u),
  };
  if (st.cost !== null) out.cost = formatUsd(st.cost);
  if (u.cacheReadTokens) out.cache_read_tokens = u.cacheReadTokens;
  if (u.cacheWriteTokens) out.cache_write_tokens = u.cacheWriteTokens;
  return `: x-svc-usage ${JSON.stringify(out)}\n\n`;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } as const;
