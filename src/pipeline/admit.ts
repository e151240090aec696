import { GatewayError } from '../errors/gateway-error.js';
import { StoreUnavailableError, type LimitScope } from '../store/contract.js';
import type { GatewayDeps } from './deps.js';
import type { RequestState } from './state.js';

/** The limit scopes of a request, in the order their refusal is reported: key, team, user, plan (org). */
export async function scopesFor(deps: GatewayDeps, st: RequestState): Promise<LimitScope[]> {
  const { key, org } = st.principal!;
  const scopes: LimitScope[] = [{ source: 'key', id: key.id, rpm: key.rpm, tpm: key.tpm, maxConcurrency: key.maxConcurrency }];
  if (key.teamId) {
    const team = await deps.store.getTeam(org.id, key.teamId);
    if (team) scopes.push({ source: 'team', id: team.id, rpm: team.rpm, tpm: team.tpm, maxConcurrency: null });
  }
  const lim = deps.config.limits;
  if (st.user !== null && (lim.userRpm !== null || lim.userTpm !== null)) {
    scopes.push({ source: 'user', id: `${key.id}:${st.user}`, rpm: lim.userRpm, tpm: lim.userTpm, maxConcurrency: null });
  }
  scopes.push({ source: 'plan', id: org.id, rpm: org.rpm, tpm: org.tpm, maxConcurrency: org.maxConcurrency });
  return scopes;
}

/**
 * Stage 2: one Store round trip re-checks the key's status (revocation on every node) and takes a slot in
 * every sliding window and concurrency ceiling, all or nothing.
 */
export async function admit(deps: GatewayDeps, st: RequestState, tokens: number): Promise<void> {
  const { key, org } = st.principal!;
  let result;
  try {
    st.scopes = await scopesFor(deps, st);
    result = await deps.store.admit({
      orgId: org.id,
      keyId: key.id,
      requestId: st.id,
      now: Date.now(),
      tokens,
      scopes: st.scopes,
      leaseTtlMs: deps.config.leases.ttlMs,
    });
  } catch (e) {
    st.scopes = [];
    if (e instanceof StoreUnavailableError) {
      throw new GatewayError('service_unavailable', { message: 'Rate-limit store temporarily unavailable.', cause: e });
    }
    throw e;
  }
  if (result.ok) return;
  st.scopes = [];
  if (result.kind === 'key_status') {
    deps.auth.invalidate(key.hash);
    throw new GatewayError('invalid_api_key', {
      message: result.status === 'missing' ? 'Invalid API key.' : `This key is ${result.status}.`,
      headers: { 'x-svc-auth-reason': result.status === 'missing' ? 'unauthorized' : 'key_blocked' },
    });
  }
  const headers = {
    'x-svc-limit-source': result.source,
    'retry-after': String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))),
  };
  if (result.kind === 'tpm') {
    throw new GatewayError('tpm_limit_exceeded', { message: `Tokens-per-minute limit reached (${result.source}).`, headers });
  }
  const what = result.kind === 'rpm' ? 'Requests-per-minute' : 'Concurrency';
  throw new GatewayError('rate_limit_exceeded', { message: `${what} limit reached (${result.source}).`, headers });
}

/** Releases the concurrency leases of a request that will not be settled (refused after admission). */
export async function releaseAdmission(deps: GatewayDeps, st: RequestState): Promise<void> {
  if (st.scopes.length === 0 || !st.principal) return;
  try {
    await deps.store.releaseLeases(st.principal.org.id, st.id, st.scopes);
  } catch (e) {
    deps.log.warn('lease release failed (leases expire on their own)', { request_id: st.id, error: (e as Error).message });
  }
}
