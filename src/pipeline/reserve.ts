import { formatUsd, type NanoUsd } from '../billing/money.js';
import { holdOf } from '../billing/price.js';
import type { ModelPricing } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import { StoreUnavailableError, type BudgetScope, type HoldResult } from '../store/contract.js';
import type { GatewayDeps } from './deps.js';
import type { RequestState } from './state.js';

export interface HoldSizing {
  /** Priced candidates of the chain: the hold covers the most expensive. */
  pricings: ModelPricing[];
  maxOutput: number;
  /** Cheap strict upper bound of input tokens. */
  upperInputTokens: number;
  /** Exact count (worker pool), used only when the bound does not fit. */
  exactInputTokens: () => Promise<number>;
}

function amountFor(s: HoldSizing, inputTokens: number): NanoUsd {
  let max = 0;
  for (const p of s.pricings) max = Math.max(max, holdOf(p, inputTokens, s.maxOutput));
  return max;
}

/**
 * Stage 4: one atomic credit hold sized for the most expensive candidate. The cheap byte bound is tried
 * first; only if it does not fit is the prompt counted exactly and the hold retried, so the event loop
 * stays cheap when the balance is far from the hold and the answer stays exact when it is close.
 */
export async function reserve(deps: GatewayDeps, st: RequestState, sizing: HoldSizing): Promise<void> {
  const { key, org } = st.principal!;
  if (sizing.pricings.length === 0) return; // unpriced self-hosted model: nothing to hold
  const budgets: BudgetScope[] = [];
  if (key.budget !== null) budgets.push({ source: 'key', id: key.id, limit: key.budget });
  if (key.teamId) {
    const team = await deps.store.getTeam(org.id, key.teamId).catch(() => null);
    if (team?.budget != null) budgets.push({ source: 'team', id: team.id, limit: team.budget });
  }
  const tryHold = async (amount: NanoUsd): Promise<HoldResult> =>
    deps.store.hold({ orgId: org.id, requestId: st.id, amount, now: Date.now(), ttlMs: deps.config.holds.ttlMs, budgets });
  let amount = amountFor(sizing, sizing.upperInputTokens);
  let result: HoldResult;
  try {
    result = await tryHold(amount);
    if (!result.ok) {
      const exact = amountFor(sizing, await sizing.exactInputTokens());
      if (exact < amount) {
        amount = exact;
        result = await tryHold(amount);
      }
    }
  } catch (e) {
    if (e instanceof StoreUnavailableError) {
      throw new GatewayError('credit_check_failed', { message: 'Credit system temporarily unavailable.', cause: e });
    }
    throw e;
  }
  if (!result.ok) {
    throw new GatewayError('insufficient_credits', {
      message:
        result.source === 'budget'
          ? `The key or team budget cannot cover this request (hold $${formatUsd(amount)}).`
          : `Balance cannot cover this request (hold $${formatUsd(amount)}, available $${formatUsd(Math.max(0, result.available))}).`,
      headers: { 'x-svc-limit-source': result.source },
    });
  }
  st.held = amount;
  if (key.budget !== null && key.budgetWarnAt !== null) {
    // The warning is decided when the headers go out, with this request's own cost added (response-headers.ts).
    const spent = await deps.store.scopeSpend(org.id, 'key', key.id).catch(() => 0);
    st.budget = { spent, limit: key.budget, warnAt: key.budgetWarnAt };
  }
}

export async function releaseHold(deps: GatewayDeps, st: RequestState): Promise<void> {
  if (st.held === 0 || !st.principal) return;
  try {
    await deps.store.releaseHold(st.principal.org.id, st.id);
    st.held = 0;
  } catch (e) {
    deps.log.warn('hold release failed (the hold expires on its own)', { request_id: st.id, error: (e as Error).message });
  }
}
