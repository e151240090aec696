import { billedTokens } from '../billing/price.js';
import { isGatewayError, GatewayError } from '../errors/gateway-error.js';
import { errorBodyFor } from '../formats/error-body.js';
import type { HeaderList, ResponseSink } from '../server/types.js';
import type { SettlementEntry } from '../store/contract.js';
import type { GatewayDeps } from './deps.js';
import { commonHeaders, latencyOf } from './response-headers.js';
import type { RequestState } from './state.js';

type Outcome = 'ok' | 'error' | 'aborted';

function settlementEntry(st: RequestState, endpoint: string, status: Outcome): SettlementEntry | null {
  const p = st.principal;
  if (!p || !st.servedModel) return null;
  const u = st.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  return {
    requestId: st.id,
    orgId: p.org.id,
    keyId: p.key.id,
    teamId: p.key.teamId,
    user: st.user,
    model: st.servedModel,
    requestedModel: st.requestedModel ?? st.servedModel,
    cost: st.cost ?? 0,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheReadTokens: u.cacheReadTokens,
    cacheWriteTokens: u.cacheWriteTokens,
    tokens: billedTokens(u),
    tags: st.tags,
    hadHold: st.held > 0,
    scopes: st.scopes.map((s) => ({ source: s.source, id: s.id })),
    status,
    endpoint,
    latencyMs: latencyOf(st),
    at: st.at,
  };
}

/** Queues the settlement of a served (or partly served) request: exact cost from actual usage. */
export function settle(deps: GatewayDeps, st: RequestState, endpoint: string, status: Outcome): void {
  const entry = settlementEntry(st, endpoint, status);
  if (entry === null) return;
  deps.settlement.enqueue(entry, st.journaled);
  deps.metrics.settled(entry.model, entry.cost, entry.inputTokens + entry.cacheReadTokens + entry.cacheWriteTokens, entry.outputTokens);
}

/** Answers a refusal or failure with the contract's error object and headers. */
export function sendError(deps: GatewayDeps, st: RequestState, res: ResponseSink, err: unknown): void {
  const ge = isGatewayError(err) ? err : new GatewayError('internal_error', { cause: err });
  if (!isGatewayError(err)) {
    deps.log.error('unhandled error', { request_id: st.id, error: (err as Error)?.stack ?? String(err) });
  }
  st.status = ge.status;
  st.errorCode = ge.code;
  // Added to the headers object rather than spread into a new one: fields added after a spread made a new hidden
  // class for every refusal (a flood of 401s or 429s is a hot path too).
  const headers = commonHeaders(st, false, 'application/json');
  for (const name in ge.headers) headers[name] = ge.headers[name];
  headers['content-type'] = 'application/json';
  res.send(ge.status, headers, errorBodyFor(st.req.path, ge));
}

/** One structured log line and the request metrics, for every request. */
export function record(deps: GatewayDeps, st: RequestState, route: string): void {
  const latency = latencyOf(st);
  deps.metrics.forRoute(route).done(st.status, st.errorCode ?? '', latency);
  deps.log.info('request', {
    request_id: st.id,
    route,
    status: st.status,
    key_alias: st.principal?.alias,
    org_id: st.principal?.org.id,
    model: st.requestedModel,
    served_model: st.servedModel,
    routing: st.routing,
    attempts: st.attempts || undefined,
    cost_nano_usd: st.cost,
    input_tokens: st.usage ? st.usage.inputTokens + st.usage.cacheReadTokens + st.usage.cacheWriteTokens : undefined,
    output_tokens: st.usage?.outputTokens,
    guardrails: st.guardrails,
    latency_ms: latency,
    error_code: st.errorCode,
    // A failure behind an unset credential variable names it, so the operator knows what to export.
    credential_unset: st.status >= 400 && st.unsetCredentials.length > 0 ? st.unsetCredentials.join(', ') : undefined,
  });
}

/**
 * The response sink a served request writes to when settlement is journaled: the call that ends the response
 * (send, or end of a stream) first records the settlement entry durably, with the cost already priced, so a
 * crash after the client has its last byte cannot leave the answer unbilled. settle() records the final
 * entry (its outcome) afterwards; the journal keeps the last record per request id.
 */
export function journalingSink(deps: GatewayDeps, st: RequestState, endpoint: string, res: ResponseSink): ResponseSink {
  return deps.settlement.journaled ? new JournalingSink(deps, st, endpoint, res) : res;
}

/**
 * A class, not an object literal: a literal with getters gets a hidden class of its own on every request
 * (the accessors are per-object closures). V8 allocates hidden classes in the old generation, so each one
 * pointed from there at its request's closures, which kept the whole request (state, headers, body) alive
 * through every young collection until the next full one: promoted bytes per request fell from ~6.5 KB to
 * ~3.5 KB with this change alone (bench/results/cpu.md, session 13), and the sink's property reads were
 * megamorphic. eslint forbids accessors in object literals under src/ and workers/ for this reason.
 */
class JournalingSink implements ResponseSink {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly st: RequestState,
    private readonly endpoint: string,
    private readonly res: ResponseSink,
  ) {}

  /** A stream's status and headers have been handed over (a failure can then only cut it short). */
  #begun = false;

  get aborted(): boolean {
    return this.res.aborted;
  }

  get backpressureEvents(): number {
    return this.res.backpressureEvents;
  }

  onAbort(cb: () => void): void {
    this.res.onAbort(cb);
  }

  send(status: number, headers: HeaderList, body: string | Uint8Array): void {
    const entry = this.#entry();
    if (entry === null) this.res.send(status, headers, body);
    else this.deps.settlement.journalThen(entry, (err) => this.#after(err, () => this.res.send(status, headers, body)));
  }

  begin(status: number, headers: HeaderList): void {
    this.#begun = true;
    this.res.begin(status, headers);
  }

  write(chunk: string | Uint8Array): boolean {
    return this.res.write(chunk);
  }

  drained(): Promise<void> {
    return this.res.drained();
  }

  cut(): void {
    this.res.cut();
  }

  end(...chunks: (string | Uint8Array)[]): void {
    const entry = this.#entry();
    if (entry === null) this.res.end(...chunks);
    else this.deps.settlement.journalThen(entry, (err) => this.#after(err, () => this.res.end(...chunks)));
  }

  /**
   * Runs after the group commit, with the other responses of the turn: never throws, so one response's failure
   * cannot keep the others from being sent.
   */
  #after(err: Error | null, answer: () => void): void {
    try {
      if (err) this.#unrecorded(err);
      else answer();
    } catch (e) {
      this.deps.log.error('response after the settlement journal write failed', { request_id: this.st.id, error: (e as Error)?.stack ?? String(e) });
    }
  }

  /** The record to journal before the last byte (null when nothing is billed), kept with the request. */
  #entry(): SettlementEntry | null {
    const entry = settlementEntry(this.st, this.endpoint, 'ok');
    if (entry !== null) this.st.journaled = entry;
    return entry;
  }

  /**
   * The record could not be written (disk full, I/O error): the answer is withheld, since it could not be billed
   * after a crash. A whole response becomes a 503; a stream, whose status and content have left, loses its connection
   * before its end ([DONE] and the chunked terminator), so no client takes it for a complete answer.
   */
  #unrecorded(err: Error): void {
    this.deps.log.error('settlement journal write failed; answer withheld', { request_id: this.st.id, error: err.message });
    if (this.res.aborted) return;
    if (this.#begun) this.res.cut();
    else sendError(this.deps, this.st, this.res, new GatewayError('service_unavailable', { message: 'Billing journal unavailable.', cause: err }));
  }
}
