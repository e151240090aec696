/**
 * The Azure OpenAI envelope (Azure OpenAI REST reference, "Chat completions"):
 *   POST {resource}/openai/deployments/{deployment}/chat/completions?api-version={version}
 * The endpoint's `baseUrl` is the resource (`https://my-res.openai.azure.com`), optionally with `/openai`
 * and an `?api-version=` query; `upstreamModel` is the deployment name. Without an api-version the
 * latest GA data-plane version is used. A baseUrl ending in `/openai/v1` selects Azure's version-less v1
 * API instead: `{baseUrl}/chat/completions`, deployment named by the body's `model`.
 */
import type { EndpointConfig } from '../../config/schema.js';

export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

export function azureChatUrl(ep: EndpointConfig): string {
  const base = new URL(ep.baseUrl);
  const version = base.searchParams.get('api-version');
  const path = base.pathname.replace(/\/+$/, '');
  if (/\/openai\/v1$/.test(path)) {
    return `${base.origin}${path}/chat/completions${version ? `?api-version=${encodeURIComponent(version)}` : ''}`;
  }
  const root = path.endsWith('/openai') ? path : `${path}/openai`;
  const deployment = encodeURIComponent(ep.upstreamModel);
  const query = `api-version=${encodeURIComponent(version ?? AZURE_DEFAULT_API_VERSION)}`;
  return `${base.origin}${root}/deployments/${deployment}/chat/completions?${query}`;
}
