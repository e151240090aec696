import type { EndpointConfig } from '../config/schema.js';

/**
 * Where each provider dialect of the simulator lives, so a catalog endpoint can be re-pointed at the
 * simulator while keeping its real provider (and so its real wire format). The simulator is the one module
 * that knows every provider: it impersonates them all. `prefix` separates deployments (`/ep-a`).
 */
const BASES: Record<string, (url: string) => string> = {
  openai: (u) => `${u}/v1`,
  'openai-compatible': (u) => `${u}/v1`,
  azure: (u) => `${u}/openai?api-version=2024-10-21`,
  anthropic: (u) => `${u}/v1`,
  bedrock: (u) => u,
  gemini: (u) => `${u}/v1beta`,
  vertex: (u) => `${u}/v1/projects/sim-project/locations/us-central1`,
  mistral: (u) => `${u}/mistral/v1`,
};

/** Credentials the simulated endpoints use (the simulator checks none unless a test configures it). */
export const SIM_ENV: Record<string, string> = {
  SVC_SIM_ACCESS_KEY_ID: 'AKIDSIMULATOR',
  SVC_SIM_SECRET_ACCESS_KEY: 'simulator-secret',
  SVC_SIM_REGION: 'us-east-1',
  SVC_SIM_TOKEN: 'simulator-token',
};

/** OpenAI sits at the simulator's root; every other provider under its own name. */
export function simPrefix(provider: string): string {
  return provider === 'openai' ? '' : `/${provider}`;
}

export function simulatedEndpoint(ep: EndpointConfig, simUrl: string, prefix = simPrefix(ep.provider)): EndpointConfig {
  const base = BASES[ep.provider];
  const url = `${simUrl}${prefix}`;
  if (!base) return { ...ep, provider: 'openai', baseUrl: `${url}/v1`, apiKeyEnv: null };
  const apiKeyEnv = ep.provider === 'bedrock' ? 'SVC_SIM_ACCESS_KEY_ID' : ep.provider === 'vertex' ? 'SVC_SIM_TOKEN' : null;
  return { ...ep, baseUrl: base(url), apiKeyEnv };
}
