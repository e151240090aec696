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
}

/** Every credential variable the catalog needs that the environment does not set, with the models it affects. */
export function missingCredentials(models: readonly ModelConfig[], env: NodeJS.ProcessEnv): MissingCredential[] {
  const byVar = new Map<string, Set<string>>();
  for (const m of models) {
    for (const ep of m.endpoints) {
      const v = unsetCredential(ep, env);
      if (v !== null) byVar.set(v, (byVar.get(v) ?? new Set()).add(m.id));
    }
  }
  return [...byVar].map(([variable, ids]) => ({ variable, models: [...ids] }));
}
