import type { EndpointConfig, ModelConfig } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ProviderAdapter } from '../providers/adapter.js';
import { adapterFor } from '../providers/registry.js';
import { endpointKey, type EndpointHealth } from '../routing/health.js';

/** One place a request may be sent: a model's endpoint, with its index in the routing chain. */
export interface Candidate {
  /** 0 = the requested model (or alias family); n = fallback entry n. */
  chainIndex: number;
  model: ModelConfig;
  endpoint: EndpointConfig;
  adapter: ProviderAdapter;
  /** Health key of the endpoint. */
  key: string;
}

export const MAX_PROVIDER_CALLS = 3;

/**
 * Orders one chain entry's endpoints: healthy ones by latency estimate (unmeasured first), one stale
 * endpoint first as an exploratory probe (so recovery is noticed), open breakers left out.
 */
function rank(cands: Candidate[], health: EndpointHealth): Candidate[] {
  const open = cands.filter((c) => !health.available(c.key));
  const avail = cands.filter((c) => health.available(c.key));
  avail.sort((a, b) => health.estimate(a.key) - health.estimate(b.key));
  const stale = avail.find((c) => health.stale(c.key));
  if (stale && avail[0] !== stale) {
    health.claimProbe(stale.key);
    avail.splice(avail.indexOf(stale), 1);
    avail.unshift(stale);
  }
  return avail.length > 0 ? avail : open.length === cands.length ? [] : avail;
}

/**
 * The routing chain: entry 0 is the requested model (a concrete id may move between its own endpoints,
 * ARCHITECTURE decision 6) or an alias family; entries 1.. are fallback models. Each entry's endpoints are
 * ranked by health.
 */
export function buildChain(entries: ModelConfig[][], health: EndpointHealth): Candidate[] {
  const chain: Candidate[] = [];
  entries.forEach((models, chainIndex) => {
    const cands: Candidate[] = [];
    for (const model of models) {
      for (const endpoint of model.endpoints) {
        const adapter = adapterFor(endpoint.provider);
        if (adapter) cands.push({ chainIndex, model, endpoint, adapter, key: endpointKey(endpoint) });
      }
    }
    chain.push(...rank(cands, health));
  });
  if (chain.length === 0) {
    throw new GatewayError('service_unavailable', { message: 'No healthy provider endpoint can serve this model right now.' });
  }
  return chain;
}
