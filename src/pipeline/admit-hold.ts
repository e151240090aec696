import { GatewayError } from '../errors/gateway-error.js';
import { StoreUnavailableError, type LimitStore } from '../store/contract.js';
import { admissionRefusal, admitStage, releaseAdmission, scopesFor, type AdmitDeps } from './admit.js';
import type { TextFlow } from './flow.js';
import { boundAmount, holdTerms, releaseHold, type HoldDeps } from './reserve.js';
import type { Stage } from './stage.js';

export type AdmitHoldDeps = AdmitDeps & HoldDeps & { store: Required<Pick<LimitStore, 'admitAndHold'>> };

/**
 * Stage 2 with the first try of stage 4, in one Store round trip (Redis: lua/admit-hold.lua): admission
 * exactly as the admit stage, then, only if admitted, the byte-bound credit hold. Used when the store offers
 * it and the route was resolved without the worker pool; otherwise it is the plain admit stage and the hold
 * waits for the hold stage. The hold placed this early is released if a later stage refuses (inspection
 * included), so a refusal still costs $0; a hold that did not fit is left to the hold stage (exact count,
 * output-cap clamping). Undo: release the hold, then the leases.
 */
export function admitHoldStage(d: AdmitHoldDeps): Stage<TextFlow> {
  const admitOnly = admitStage(d);
  return {
    name: 'admit-hold',
    async run(f) {
      // svc/auto (the route, and so the hold, comes later) or a deferred refusal (nothing to hold for).
      if (f.chain === undefined || f.deferred) return admitOnly.run(f);
      const { pricings, budgets } = holdTerms(f);
      if (pricings.length === 0) return admitOnly.run(f);
      const st = f.st;
      const { key, org } = st.principal!;
      const scopes = scopesFor(d.limits, st);
      const amount = boundAmount(f, pricings);
      let result;
      try {
        result = await d.store.admitAndHold(
          { orgId: org.id, keyId: key.id, requestId: st.id, now: Date.now(), tokens: f.admitTokens, scopes, leaseTtlMs: d.leaseTtlMs },
          { amount, ttlMs: d.holdTtlMs, budgets },
        );
      } catch (e) {
        if (e instanceof StoreUnavailableError) {
          throw new GatewayError('service_unavailable', { message: 'Rate-limit store temporarily unavailable.', cause: e });
        }
        throw e;
      }
      if (result.hold === null) throw admissionRefusal(result.admit, d.auth, key.hash);
      st.scopes = scopes;
      if (result.hold.ok) st.held = amount;
      else f.boundHold = { amount, result: result.hold };
    },
    async undo(f) {
      await releaseHold(d, f.st);
      await releaseAdmission(d, f.st);
    },
  };
}
