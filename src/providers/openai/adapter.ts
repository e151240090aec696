import type { EndpointConfig } from '../../config/schema.js';
import type { ProviderAdapter } from '../adapter.js';
import { mapOpenAIError } from './errors.js';
import { fromOpenAIUsage } from './usage.js';

const FAILOVER = new Set([429, 503, 529]);

export const openaiAdapter: ProviderAdapter = {
  name: 'openai',
  capabilities: { chatPassthrough: true },
  chatRequest(ep: EndpointConfig, env: NodeJS.ProcessEnv) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = ep.apiKeyEnv ? env[ep.apiKeyEnv] : undefined;
    if (key) headers.authorization = `Bearer ${key}`;
    return { url: `${ep.baseUrl.replace(/\/$/, '')}/chat/completions`, headers };
  },
  usage: fromOpenAIUsage,
  mayFailOver: (status) => FAILOVER.has(status),
  mapError: mapOpenAIError,
};
