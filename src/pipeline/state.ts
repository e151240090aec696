import type { TokenUsage } from '../billing/price.js';
import type { NanoUsd } from '../billing/money.js';
import type { IncomingRequest } from '../server/types.js';
import type { LimitScope, SettlementEntry } from '../store/contract.js';
import type { Principal } from './authenticate.js';
import { newRequestId } from './request-id.js';

export type GuardrailVerdict = 'none' | 'monitor' | 'pass' | 'redacted' | 'partial' | 'blocked' | 'unavailable';

/** Everything one request accumulates on its way through the stages (headers and logs read it). */
export class RequestState {
  readonly id: string = newRequestId();
  readonly at = Date.now();
  principal: Principal | null = null;
  requestedModel: string | null = null;
  /** Model that served the call (x-svc-model). */
  servedModel: string | null = null;
  routing: string | null = null;
  attempts = 0;
  guardrails: GuardrailVerdict | null = null;
  usage: TokenUsage | null = null;
  /** null = unpriced. */
  cost: NanoUsd | null = null;
  /** What the guardrail second stage cost (guardrails.secondStage.priceUsd), added to a served request's cost. */
  guardCost: NanoUsd = 0;
  priced = true;
  /** The key's budget when it has a soft threshold: settled spend before this request, limit, threshold. */
  budget: { spent: NanoUsd; limit: NanoUsd; warnAt: number } | null = null;
  /** x-svc-response-cache: `bypass` when svc_cache is false (there is no response cache yet otherwise). */
  responseCache: 'hit' | 'miss' | 'bypass' | null = null;
  /** x-svc-compression verdict, when compression was considered. */
  compression: 'applied' | 'not_requested' | 'off' | 'skipped' | null = null;
  scopes: LimitScope[] = [];
  held: NanoUsd = 0;
  /** The output cap the hold lowered an unstated max_tokens to (x-svc-max-tokens-clamped), else null. */
  maxTokensClamped: number | null = null;
  tags: string[] = [];
  user: string | null = null;
  /** ms from request arrival to the first byte of the response. */
  latencyMs: number | null = null;
  status = 0;
  errorCode: string | null = null;
  /** Credential variables (`apiKeyEnv`) unset for the endpoints this request called: named in its log line. */
  unsetCredentials: string[] = [];
  /** The settlement entry journaled as the response ended (finish.ts, JournalingSink); the final one is compared with it. */
  journaled: SettlementEntry | null = null;

  constructor(readonly req: IncomingRequest) {}
}
