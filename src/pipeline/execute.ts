import { scrubSecrets } from '../providers/openai/errors.js';
import { performance } from 'node:perf_hooks';
import { unsetCredential } from '../config/credentials.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { UpstreamHttpRequest } from '../providers/adapter.js';
import type { CallAbort } from '../upstream/call-abort.js';
import { sendUpstream, type UpstreamResponse } from '../upstream/client.js';
import { MAX_PROVIDER_CALLS, type Candidate } from './chain.js';
import type { GatewayDeps } from './deps.js';
import type { RequestState } from './state.js';

export interface Answer {
  candidate: Candidate;
  response: UpstreamResponse;
}

/**
 * Stage 5: walks the routing chain. Moves on only after an upstream 429/503/529 or a connect-phase failure
 * (contract: svc_fallbacks rule), at most MAX_PROVIDER_CALLS provider calls in all. Any other upstream
 * status is the answer (success or a final error). When nothing answered, the last error is returned.
 */
export async function execute(
  deps: GatewayDeps,
  st: RequestState,
  chain: Candidate[],
  requestFor: (c: Candidate) => UpstreamHttpRequest,
  signal: CallAbort,
): Promise<Answer> {
  let lastError: GatewayError | null = null;
  for (const candidate of chain) {
    if (st.attempts >= MAX_PROVIDER_CALLS) break;
    if (signal.aborted) break;
    const { endpoint, adapter } = candidate;
    const unset = unsetCredential(endpoint, deps.env);
    if (unset !== null && !st.unsetCredentials.includes(unset)) st.unsetCredentials.push(unset);
    let upstream: UpstreamHttpRequest;
    try {
      upstream = requestFor(candidate);
    } catch (e) {
      // A request this endpoint cannot express (e.g. missing credentials): try the next one.
      lastError = e instanceof GatewayError ? e : new GatewayError('service_unavailable', { message: (e as Error).message });
      continue;
    }
    st.attempts++;
    deps.health.begin(candidate.key);
    const sentAt = performance.now();
    // Named field by field: adding fields to a spread (`{ ...upstream, signal }`) made a new hidden class per call.
    const result = await sendUpstream(deps.agent, {
      url: upstream.url,
      body: upstream.body,
      headers: endpoint.headers ? { ...upstream.headers, ...endpoint.headers } : upstream.headers,
      signal,
      timeouts: { ...deps.config.upstream, ...endpoint.timeouts },
    });
    if (!result.ok) {
      deps.metrics.upstreamAttempt(adapter.name, result.failure.kind);
      if (result.failure.kind === 'aborted') break;
      if (result.failure.kind === 'connect') deps.health.failure(candidate.key);
      if (result.failure.kind === 'timeout') {
        // Not a connect-phase failure: the provider may be working on it, so no failover.
        throw new GatewayError('upstream_timeout', { message: `${candidate.model.id}: ${result.failure.message}` });
      }
      lastError = new GatewayError('service_unavailable', { message: `${candidate.model.id}: ${result.failure.message}` });
      continue;
    }
    const status = result.response.statusCode;
    deps.metrics.upstreamAttempt(adapter.name, String(status));
    if (status >= 200 && status < 300) {
      deps.health.success(candidate.key, performance.now() - sentAt);
      st.routing = candidate.chainIndex === 0 ? 'direct' : `fallback:${candidate.chainIndex}`;
      st.servedModel = candidate.model.id;
      return { candidate, response: result.response };
    }
    const text = (await result.response.body.readAll(1024 * 1024).catch(() => Buffer.alloc(0))).toString('utf8');
    const mapped = adapter.mapError(status, text);
    // The client gets our own words; the provider's (secrets scrubbed) stay in the log for the operator.
    deps.log.warn('upstream error', { request_id: st.id, provider: adapter.name, status, upstream: scrubSecrets(text).slice(0, 2000) });
    if (!adapter.mayFailOver(status)) throw mapped;
    deps.health.failure(candidate.key);
    lastError = mapped;
  }
  if (signal.aborted) throw new GatewayError('client_closed', { message: 'Client disconnected.' });
  throw lastError ?? new GatewayError('service_unavailable', { message: 'No provider could be reached.' });
}
