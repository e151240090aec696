import type { EndpointConfig, ModelConfig } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ProviderAdapter } from '../providers/adapter.js';
import { adapterFor } from '../providers/registry.js';
import type { Catalog } from '../routing/catalog.js';
import type { KeyRecord } from '../store/contract.js';

/** One place a request may be sent: a model's endpoint, with its index in the routing chain. */
export interface Candidate {
  /** 0 = the requested model; n = svc_fallbacks / org fallback entry n. */
  chainIndex: number;
  model: ModelConfig;
  endpoint: EndpointConfig;
  adapter: ProviderAdapter;
}

export const MAX_PROVIDER_CALLS = 3;

/**
 * The routing chain: the requested model's endpoints (decision 6: a concrete id may move between endpoints
 * of the same model), then each fallback model's endpoints. Fallbacks come from svc_fallbacks (replacing
 * the org list) or the organization's default list; each must be routable by the key.
 */
export function buildChain(
  catalog: Catalog,
  key: KeyRecord,
  primary: ModelConfig,
  requestFallbacks: string[] | null,
  orgFallbacks: string[],
): Candidate[] {
  const models: ModelConfig[] = [primary];
  if (requestFallbacks) {
    for (const id of requestFallbacks) {
      const m = catalog.routable(id, key);
      if (!m) {
        throw new GatewayError('fallback_not_allowed', { message: `Fallback model not routable by this key: ${id}` });
      }
      models.push(m);
    }
  } else {
    for (const id of orgFallbacks) {
      const m = catalog.routable(id, key);
      if (m && m.id !== primary.id) models.push(m);
    }
  }
  const chain: Candidate[] = [];
  models.forEach((model, chainIndex) => {
    for (const endpoint of model.endpoints) {
      const adapter = adapterFor(endpoint.provider);
      if (adapter?.capabilities.chatPassthrough) chain.push({ chainIndex, model, endpoint, adapter });
    }
  });
  if (chain.length === 0) {
    throw new GatewayError('service_unavailable', { message: `No provider adapter can serve ${primary.id} yet.` });
  }
  return chain;
}
