import type { EndpointConfig } from '../../config/schema.js';
import { credentialOf } from '../openai/auth.js';

/** Azure OpenAI key authentication: the resource key in an `api-key` header (not a Bearer token). */
export function azureAuth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const key = credentialOf(ep, env);
  return key ? { 'api-key': key } : {};
}
