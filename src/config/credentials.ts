import type { EndpointConfig, ModelConfig } from './schema.js';

/** The credential variable an endpoint names but the environment leaves unset or empty; null otherwise. */
export function unsetCredential(ep: Pick<EndpointConfig, 'apiKeyEnv'>, env: NodeJS.ProcessEnv): string | null {
  return ep.apiKeyEnv !== null && !env[ep.apiKeyEnv] ? ep.apiKeyEnv : null;
}

export interface MissingCredential {
  /** The environment variable (`apiKeyEnv`) that is unset. */
  variable: string;
  /** Ids of the models with at least one endpoint that needs it. */
  models: string[];
  /** Those endpoints, as `provider@host`. */
  endpoints: string[];
}

/** Every credential variable the catalog needs that the environment does not set, with the models it affects. */
export function missingCredentials(models: readonly ModelConfig[], env: NodeJS.ProcessEnv): MissingCredential[] {
  const byVar = new Map<string, { models: Set<string>; endpoints: Set<string> }>();
  for (const m of models) {
    for (const ep of m.endpoints) {
      const v = unsetCredential(ep, env);
      if (v === null) continue;
      const entry = byVar.get(v) ?? { models: new Set<string>(), endpoints: new Set<string>() };
      entry.models.add(m.id);
      entry.endpoints.add(`${ep.provider}@${new URL(ep.baseUrl).host}`);
      byVar.set(v, entry);
    }
  }
  return [...byVar].map(([variable, e]) => ({ variable, models: [...e.models], endpoints: [...e.endpoints] }));
}
