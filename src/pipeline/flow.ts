import type { PromptSize } from '../billing/estimate.js';
import type { ResolvedRoute } from '../routing/resolve.js';
import type { IncomingRequest } from '../server/types.js';
import type { HoldResult } from '../store/contract.js';
import type { Candidate } from './chain.js';
import type { ControlFields } from './control-fields.js';
import type { FrontEnd, Prepared } from './front-end.js';
import type { PendingInspection } from './inspect.js';
import type { Deferring, Progress } from './stage.js';
import { RequestState } from './state.js';

/**
 * One request on its way through a chain. `st` is what the response headers and the log line report; the
 * other fields are what the stages hand each other. Every route's flow has these.
 */
export class Flow implements Progress {
  readonly st: RequestState;
  passed = 0;
  /** Tokens the admission stage counts against TPM windows (0 for unmetered routes). */
  admitTokens = 0;

  constructor(
    readonly req: IncomingRequest,
    /** Route pattern checked against the key's allowed routes. */
    readonly endpoint: string,
    /** The messages routes also accept the key as `x-api-key`. */
    readonly allowXApiKey: boolean,
  ) {
    this.st = new RequestState(req);
  }

  get orgId(): string {
    return this.st.principal!.org.id;
  }
}

/** A text inference request: what the decode, route, inspect and hold stages add, in that order. */
export class TextFlow extends Flow implements Deferring {
  /** A refusal met before admission, given right after it (stage.ts, deferRefusal). */
  deferred: Error | null = null;
  fields!: ControlFields;
  p!: Prepared;
  size!: PromptSize;
  resolved!: ResolvedRoute;
  /** Set by whichever stage resolves the route (resolve before admission, or route after it for svc/auto). */
  chain: Candidate[] | undefined = undefined;
  /** Output cap the hold covers and the upstream is sent (per choice). */
  maxOut = 0;
  /** Set when the hold had to lower an unstated output cap to what credit covers (x-svc-max-tokens-clamped). */
  clamped: number | null = null;
  /** Exact prompt count (worker pool), started at most once, only when a bound is not enough. */
  exact: Promise<number> | null = null;
  pending: PendingInspection | null = null;
  /** The byte-bound hold tried together with admission and refused (the hold stage goes on from there). */
  boundHold: { amount: number; result: Extract<HoldResult, { ok: false }> } | null = null;

  constructor(
    req: IncomingRequest,
    readonly fe: FrontEnd,
  ) {
    super(req, fe.route, fe.allowXApiKey);
    // Admitted before the body is parsed, the TPM estimate is the body's typical token count (about 4 bytes
    // a token); the decode stage refines it from the prompt itself when it runs first. Settlement replaces
    // the estimate with the upstream's usage either way.
    this.admitTokens = Math.ceil(req.body.length / 4);
  }
}
