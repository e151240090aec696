import type { GatewayConfig } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import { StoreUnavailableError, type AdmitResult, type LimitScope, type LimitStore } from '../store/contract.js';
import type { Logger } from '../obs/logger.js';
import type { Authenticator } from './authenticate.js';
import type { Flow } from './flow.js';
import type { Stage } from './stage.js';
import type { RequestState } from './state.js';

export interface AdmitDeps {
  store: LimitStore;
  auth: Pick<Authenticator, 'invalidate'>;
  limits: GatewayConfig['limits'];
  leaseTtlMs: number;
  log: Pick<Logger, 'warn'>;
}

/** The limit scopes of a request, in the order their refusal is reported: key, team, user, plan (org). */
export function scopesFor(limits: GatewayConfig['limits'], st: RequestState): LimitScope[] {
  const { key, org, team } = st.principal!;
  const scopes: LimitScope[] = [{ source: 'key', id: key.id, rpm: key.rpm, tpm: key.tpm, maxConcurrency: key.maxConcurrency }];
  if (team) scopes.push({ source: 'team', id: team.id, rpm: team.rpm, tpm: team.tpm, maxConcurrency: null });
  const lim = limits;
  if (st.user !== null && (lim.userRpm !== null || lim.userTpm !== null)) {
    scopes.push({ source: 'user', id: `${key.id}:${st.user}`, rpm: lim.userRpm, tpm: lim.userTpm, maxConcurrency: null });
  }
  scopes.push({ source: 'plan', id: org.id, rpm: org.rpm, tpm: org.tpm, maxConcurrency: org.maxConcurrency });
  return scopes;
}

/**
 * Stage 2: one Store round trip re-checks the key's status (revocation bites on every node, whatever the
 * key cache holds) and takes a slot in every sliding window and concurrency ceiling, all or nothing. It runs
 * before anything that costs CPU in the worker pool: a refused key pays for nothing but its body parse.
 * Undo: release the concurrency leases (a served request's settlement releases them instead).
 */
export function admitStage(d: AdmitDeps): Stage<Flow> {
  return {
    name: 'admit',
    async run(f) {
      const st = f.st;
      const { key, org } = st.principal!;
      let result;
      try {
        const scopes = scopesFor(d.limits, st);
        result = await d.store.admit({
          orgId: org.id,
          keyId: key.id,
          requestId: st.id,
          now: Date.now(),
          tokens: f.admitTokens,
          scopes,
          leaseTtlMs: d.leaseTtlMs,
        });
        if (result.ok) {
          st.scopes = scopes;
          return;
        }
      } catch (e) {
        if (e instanceof StoreUnavailableError) {
          throw new GatewayError('service_unavailable', { message: 'Rate-limit store temporarily unavailable.', cause: e });
        }
        throw e;
      }
      throw admissionRefusal(result, d.auth, key.hash);
    },
    undo: (f) => releaseAdmission(d, f.st),
  };
}

/** The refusal for an admission the Store declined (a key no longer active also leaves the key cache). */
export function admissionRefusal(result: Extract<AdmitResult, { ok: false }>, auth: Pick<Authenticator, 'invalidate'>, keyHash: string): GatewayError {
  if (result.kind === 'key_status') {
    auth.invalidate(keyHash);
    return new GatewayError('invalid_api_key', {
      message: result.status === 'missing' ? 'Invalid API key.' : `This key is ${result.status}.`,
      headers: { 'x-svc-auth-reason': result.status === 'missing' ? 'unauthorized' : 'key_blocked' },
    });
  }
  const headers = {
    'x-svc-limit-source': result.source,
    'retry-after': String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))),
  };
  if (result.kind === 'tpm') {
    return new GatewayError('tpm_limit_exceeded', { message: `Tokens-per-minute limit reached (${result.source}).`, headers });
  }
  const what = result.kind === 'rpm' ? 'Requests-per-minute' : 'Concurrency';
  return new GatewayError('rate_limit_exceeded', { message: `${what} limit reached (${result.source}).`, headers });
}

/** Gives back the concurrency leases of an admitted request that will not be settled. */
export async function releaseAdmission(d: Pick<AdmitDeps, 'store' | 'log'>, st: RequestState): Promise<void> {
  const scopes = st.scopes;
  st.scopes = [];
  // Only ceilings with maxConcurrency hold a lease: no round trip when none does.
  if (!st.principal || !scopes.some((s) => s.maxConcurrency !== null)) return;
  try {
    await d.store.releaseLeases(st.principal.org.id, st.id, scopes);
  } catch (e) {
    d.log.warn('lease release failed (leases expire on their own)', { request_id: st.id, error: (e as Error).message });
  }
}
