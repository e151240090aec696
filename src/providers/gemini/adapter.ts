/**
 * Google Gemini API: `POST {baseUrl}/models/{model}:generateContent` (or `:streamGenerateContent?alt=sse`)
 * with `x-goog-api-key`. `baseUrl` includes the version, e.g. https://generativelanguage.googleapis.com/v1beta.
 */
import type { EndpointConfig } from '../../config/schema.js';
import type { ProviderAdapter } from '../adapter.js';
import { geminiAuth } from './auth.js';
import { googleAdapter } from './base.js';

export function geminiModelUrl(ep: EndpointConfig): string {
  const model = ep.upstreamModel.replace(/^models\//, '');
  return `${ep.baseUrl.replace(/\/+$/, '')}/models/${encodeURIComponent(model)}`;
}

export const geminiAdapter: ProviderAdapter = googleAdapter('gemini', { modelUrl: geminiModelUrl, auth: geminiAuth });
