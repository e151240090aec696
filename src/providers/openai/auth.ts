import type { EndpointConfig } from '../../config/schema.js';

/** The endpoint's credential from the environment; undefined for unauthenticated (self-hosted) servers. */
export function credentialOf(ep: EndpointConfig, env: NodeJS.ProcessEnv): string | undefined {
  const value = ep.apiKeyEnv ? env[ep.apiKeyEnv] : undefined;
  return value ? value : undefined;
}

/** OpenAI-style `Authorization: Bearer <key>`, omitted when the endpoint has no credential. */
export function bearerAuth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const key = credentialOf(ep, env);
  return key ? { authorization: `Bearer ${key}` } : {};
}
