import { upperBoundTokens } from '../billing/estimate.js';
import { formatUsd, type NanoUsd } from '../billing/money.js';
import { holdOf } from '../billing/price.js';
import type { ModelPricing } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../obs/logger.js';
import type { WorkerPool } from '../pool/pool.js';
import { StoreUnavailableError, type BudgetScope, type CreditStore, type HoldResult } from '../store/contract.js';
import type { TextFlow } from './flow.js';
import { exactInputTokens } from './route-stage.js';
import type { Stage } from './stage.js';
import type { RequestState } from './state.js';

/**
 * The smallest output cap a clamped request is still sent with: below this not even a one-line answer
 * fits, so the request is refused 402 instead (README, "Small budgets").
 */
export const MIN_CLAMPED_OUTPUT = 16;

export interface HoldDeps {
  store: Pick<CreditStore, 'hold' | 'releaseHold' | 'scopeSpend'>;
  pool: Pick<WorkerPool, 'run'>;
  holdTtlMs: number;
  log: Pick<Logger, 'warn'>;
}

function amountFor(pricings: readonly ModelPricing[], inputTokens: number, outputTokens: number): NanoUsd {
  let max = 0;
  for (const p of pricings) max = Math.max(max, holdOf(p, inputTokens, outputTokens));
  return max;
}

/** The largest output cap (per choice, at most `cap`) whose hold fits in `room`; 0 when none does. */
export function coverableOutput(pricings: readonly ModelPricing[], inputTokens: number, n: number, room: NanoUsd, cap: number): number {
  let lo = 0;
  let hi = cap;
  if (amountFor(pricings, inputTokens, 0) > room) return 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (amountFor(pricings, inputTokens, mid * n) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function refusal(result: Extract<HoldResult, { ok: false }>, amount: NanoUsd): GatewayError {
  return new GatewayError('insufficient_credits', {
    message:
      result.source === 'budget'
        ? `The key or team budget cannot cover this request (hold $${formatUsd(amount)}).`
        : `Balance cannot cover this request (hold $${formatUsd(amount)}, available $${formatUsd(Math.max(0, result.available))}).`,
    headers: { 'x-svc-limit-source': result.source },
  });
}

/** The priced candidates of the chain (the hold covers the most expensive) and the budgets it must fit. */
export function holdTerms(f: TextFlow): { pricings: ModelPricing[]; budgets: BudgetScope[] } {
  const { key, team } = f.st.principal!;
  const pricings: ModelPricing[] = [];
  for (const c of f.chain!) if (c.model.pricing !== null && !pricings.includes(c.model.pricing)) pricings.push(c.model.pricing);
  const budgets: BudgetScope[] = [];
  if (key.budget !== null) budgets.push({ source: 'key', id: key.id, limit: key.budget });
  if (team?.budget != null) budgets.push({ source: 'team', id: team.id, limit: team.budget });
  return { pricings, budgets };
}

/** The first hold tried: the cheap byte bound of the prompt plus the full output cap. */
export function boundAmount(f: TextFlow, pricings: readonly ModelPricing[]): NanoUsd {
  return amountFor(pricings, upperBoundTokens(f.size), f.maxOut * f.p.n);
}

/**
 * Stage 4: one atomic credit hold sized for the most expensive candidate. The cheap byte bound is tried
 * first (unless admission already tried it in the same round trip, see admit-hold.ts); only if it does not
 * fit is the prompt counted exactly and the hold retried. When even that does not fit and the client stated
 * no output cap, the cap is lowered to what the balance and budgets cover (never below MIN_CLAMPED_OUTPUT)
 * and held again: the lowered cap is what the upstream is sent, so the hold still bounds the cost.
 * Undo: release the hold.
 */
export function holdStage(d: HoldDeps): Stage<TextFlow> {
  const tryHold = (f: TextFlow, amount: NanoUsd, budgets: BudgetScope[]): Promise<HoldResult> =>
    d.store.hold({ orgId: f.orgId, requestId: f.st.id, amount, now: Date.now(), ttlMs: d.holdTtlMs, budgets });

  return {
    name: 'hold',
    async run(f) {
      const st = f.st;
      const { key, org } = st.principal!;
      if (st.held === 0) {
        const { pricings, budgets } = holdTerms(f);
        if (pricings.length === 0) return; // unpriced self-hosted model: nothing to hold
        const n = f.p.n;
        try {
          let amount = f.boundHold?.amount ?? boundAmount(f, pricings);
          let result = f.boundHold?.result ?? (await tryHold(f, amount, budgets));
          if (!result.ok) {
            const input = await exactInputTokens(d.pool, f);
            const exact = amountFor(pricings, input, f.maxOut * n);
            if (exact < amount) {
              amount = exact;
              result = await tryHold(f, amount, budgets);
            }
            if (!result.ok && f.p.maxTokens === null) {
              // What the org balance and each budget can still take (a budget's open holds are checked by the hold itself).
              let room = result.available;
              for (const b of budgets) room = Math.min(room, b.limit - (await d.store.scopeSpend(org.id, b.source, b.id)));
              const out = coverableOutput(pricings, input, n, room, f.maxOut);
              if (out >= MIN_CLAMPED_OUTPUT && out < f.maxOut) {
                const clampedAmount = amountFor(pricings, input, out * n);
                const clamped = await tryHold(f, clampedAmount, budgets);
                if (clamped.ok) {
                  amount = clampedAmount;
                  result = clamped;
                  f.maxOut = out;
                  f.clamped = out;
                  st.maxTokensClamped = out;
                }
              }
            }
          }
          if (!result.ok) throw refusal(result, amount);
          st.held = amount;
        } catch (e) {
          if (e instanceof StoreUnavailableError) {
            throw new GatewayError('credit_check_failed', { message: 'Credit system temporarily unavailable.', cause: e });
          }
          throw e;
        }
      }
      if (key.budget !== null && key.budgetWarnAt !== null) {
        // The warning is decided when the headers go out, with this request's own cost added (response-headers.ts).
        const spent = await d.store.scopeSpend(org.id, 'key', key.id).catch(() => 0);
        st.budget = { spent, limit: key.budget, warnAt: key.budgetWarnAt };
      }
    },
    undo: (f) => releaseHold(d, f.st),
  };
}

/** Gives back a request's credit hold without charging (idempotent). */
export async function releaseHold(d: Pick<HoldDeps, 'store' | 'log'>, st: RequestState): Promise<void> {
  if (st.held === 0 || !st.principal) return;
  try {
    await d.store.releaseHold(st.principal.org.id, st.id);
    st.held = 0;
  } catch (e) {
    d.log.warn('hold release failed (the hold expires on its own)', { request_id: st.id, error: (e as Error).message });
  }
}
