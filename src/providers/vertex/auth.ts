import type { EndpointConfig } from '../../config/schema.js';
import { credentialOf } from '../openai/auth.js';

/**
 * Vertex AI takes a Google OAuth2 access token as a Bearer token. The endpoint's `apiKeyEnv` names the
 * variable holding it (e.g. filled from `gcloud auth print-access-token` or a metadata-server sidecar);
 * tokens live about an hour, so the operator's refresher keeps the variable current.
 */
export function vertexAuth(ep: EndpointConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const token = credentialOf(ep, env);
  return token ? { authorization: `Bearer ${token}` } : {};
}
