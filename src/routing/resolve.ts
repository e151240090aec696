import type { AliasConfig, AutoTier, ModelConfig } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { KeyRecord, OrgRecord } from '../store/contract.js';
import type { Catalog } from './catalog.js';

export interface ResolvedRoute {
  /** Chain entries: models per entry (entry 0 may hold an alias family). */
  entries: ModelConfig[][];
  /** The alias the client named, if any (the body then reports it as `model`). */
  alias: AliasConfig | null;
  /** The model the limits (max output, context) are checked against. */
  primary: ModelConfig;
  tier: AutoTier | null;
}

function routableList(catalog: Catalog, key: KeyRecord, ids: string[]): ModelConfig[] {
  return ids.map((id) => catalog.routable(id, key)).filter((m): m is ModelConfig => m !== undefined);
}

function explicitFallbacks(catalog: Catalog, key: KeyRecord, ids: string[]): ModelConfig[][] {
  return ids.map((id) => {
    const m = catalog.routable(id, key);
    if (!m) throw new GatewayError('fallback_not_allowed', { message: `Fallback model not routable by this key: ${id}` });
    return [m];
  });
}

const outputPrice = (m: ModelConfig): number => m.pricing?.output ?? 0;

/**
 * Resolves the requested model into the routing chain. A concrete id pins its model; svc_fallbacks replace
 * the organization's list; `fastest-*` is one entry holding the family; svc/auto classifies the prompt
 * (lazily, in the worker pool) and picks the first model of the tier within the price ceiling, falling back
 * only to tier models costing the same or less.
 */
export async function resolveRoute(
  catalog: Catalog,
  key: KeyRecord,
  org: OrgRecord,
  model: string,
  fallbacks: string[] | null,
  promptTokens: number,
  classify: () => Promise<AutoTier>,
): Promise<ResolvedRoute> {
  const concrete = catalog.routable(model, key);
  if (concrete) {
    const rest = fallbacks
      ? explicitFallbacks(catalog, key, fallbacks)
      : routableList(catalog, key, org.fallbacks).filter((m) => m.id !== concrete.id).map((m) => [m]);
    return { entries: [[concrete], ...rest], alias: null, primary: concrete, tier: null };
  }
  const alias = catalog.alias(model, key);
  if (!alias) throw new GatewayError('model_not_found', { message: `The model ${model} does not exist or is not available.` });
  const rest = fallbacks ? explicitFallbacks(catalog, key, fallbacks) : [];
  if (alias.kind === 'fastest') {
    const family = routableList(catalog, key, alias.models);
    return { entries: [family, ...rest], alias, primary: family[0]!, tier: null };
  }
  const tier = await classify();
  const ceiling = org.priceCeilingPerMTok;
  const fits = (m: ModelConfig): boolean => (ceiling === null || outputPrice(m) <= ceiling) && m.contextLength >= promptTokens;
  let pool = routableList(catalog, key, alias.tiers[tier]).filter(fits);
  if (pool.length === 0) pool = routableList(catalog, key, alias.tiers.simple).filter(fits);
  const pick = pool[0];
  if (!pick) {
    throw new GatewayError('invalid_request', { message: 'svc/auto found no model within the organization price ceiling and context size.' });
  }
  const cheaper = pool.slice(1).filter((m) => outputPrice(m) <= outputPrice(pick));
  return { entries: [[pick], ...(fallbacks ? rest : cheaper.map((m) => [m]))], alias, primary: pick, tier };
}
