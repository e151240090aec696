import type { EndpointConfig } from '../../config/schema.js';
import { credentialOf } from '../openai/auth.js';

/** Gemini API key authentication: `x-goog-api-key` (kept out of the URL, where `?key=` would be logged). */
export function geminiAuth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const key = credentialOf(ep, env);
  return key ? { 'x-goog-api-key': key } : {};
}
