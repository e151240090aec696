import type { ProviderAdapter } from './adapter.js';
import { anthropicAdapter } from './anthropic/adapter.js';
import { azureAdapter } from './azure/adapter.js';
import { bedrockAdapter } from './bedrock/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { mistralAdapter } from './mistral/adapter.js';
import { openaiAdapter } from './openai/adapter.js';
import { openaiCompatibleAdapter } from './openai-compatible/adapter.js';
import { vertexAdapter } from './vertex/adapter.js';

/** Provider registry: the only place that maps provider names to adapters. */
const ADAPTERS = new Map<string, ProviderAdapter>([
  ['openai', openaiAdapter],
  ['openai-compatible', openaiCompatibleAdapter],
  ['azure', azureAdapter],
  ['mistral', mistralAdapter],
  ['gemini', geminiAdapter],
  ['vertex', vertexAdapter],
  ['anthropic', anthropicAdapter],
  ['bedrock', bedrockAdapter],
]);

export function adapterFor(provider: string): ProviderAdapter | undefined {
  return ADAPTERS.get(provider);
}


/** Every provider name a catalog endpoint may use (config validation refuses any other). */
export function providerNames(): string[] {
  return [...ADAPTERS.keys()];
}
