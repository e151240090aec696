import type { ProviderAdapter } from './adapter.js';
import { openaiAdapter } from './openai/adapter.js';

/**
 * Provider registry: the only place that maps provider names to adapters. Until their own adapters land
 * (issue 3), OpenAI-compatible upstreams (vLLM, Ollama, llama.cpp, Mistral's chat API) use the OpenAI one.
 */
const ADAPTERS = new Map<string, ProviderAdapter>([
  ['openai', openaiAdapter],
  ['openai-compatible', { ...openaiAdapter, name: 'openai-compatible' }],
]);

export function adapterFor(provider: string): ProviderAdapter | undefined {
  return ADAPTERS.get(provider);
}

export function knownProviders(): string[] {
  return [...ADAPTERS.keys()];
}
