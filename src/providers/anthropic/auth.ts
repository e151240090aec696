/**
 * Anthropic authentication: the API key in `x-api-key` (read from the environment variable the endpoint
 * names) and the pinned `anthropic-version` (API reference, "Versions"). Optional beta features travel in
 * `anthropic-beta`, comma-separated.
 */
import type { EndpointConfig } from '../../config/schema.js';

/** The Messages API version every request pins; its wire shapes are the ones this adapter speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

export function anthropicHeaders(ep: EndpointConfig, env: NodeJS.ProcessEnv, betas: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
  };
  const key = ep.apiKeyEnv ? env[ep.apiKeyEnv] : undefined;
  // A missing key is sent as no key: the provider's 401 is mapped like any other refused credential.
  if (key) headers['x-api-key'] = key;
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return headers;
}

/** `{baseUrl}/messages`; the base URL carries the version prefix (`https://api.anthropic.com/v1`). */
export function messagesUrl(ep: EndpointConfig): string {
  return `${ep.baseUrl.replace(/\/+$/, '')}/messages`;
}
