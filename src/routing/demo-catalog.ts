import type { AliasConfig, EndpointConfig, ModelConfig } from '../config/schema.js';

/**
 * The demo catalog: real public list prices (USD per million tokens) as published by each provider.
 * Endpoints point at the providers' real APIs; with no credentials in the environment, dev bootstrap
 * re-points every endpoint at the built-in simulator (src/main.ts).
 */
const openai = (upstreamModel: string): EndpointConfig => ({
  provider: 'openai',
  upstreamModel,
  baseUrl: 'https://api.openai.com/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
});

const CATALOGED = 1735689600; // 2025-01-01T00:00:00Z

export const DEMO_CATALOG: ModelConfig[] = [
  {
    id: 'gpt-4o',
    ownedBy: 'openai',
    created: CATALOGED,
    contextLength: 128_000,
    maxOutput: 16_384,
    pricing: { input: 2.5, output: 10, cacheRead: 1.25 },
    endpoints: [openai('gpt-4o-2024-08-06')],
  },
  {
    id: 'gpt-4o-mini',
    ownedBy: 'openai',
    created: CATALOGED,
    contextLength: 128_000,
    maxOutput: 16_384,
    pricing: { input: 0.15, output: 0.6, cacheRead: 0.075 },
    endpoints: [openai('gpt-4o-mini-2024-07-18')],
  },
  {
    id: 'gpt-4.1',
    ownedBy: 'openai',
    created: CATALOGED,
    contextLength: 1_047_576,
    maxOutput: 32_768,
    pricing: { input: 2, output: 8, cacheRead: 0.5 },
    endpoints: [openai('gpt-4.1-2025-04-14')],
  },
  {
    id: 'gpt-4.1-mini',
    ownedBy: 'openai',
    created: CATALOGED,
    contextLength: 1_047_576,
    maxOutput: 32_768,
    pricing: { input: 0.4, output: 1.6, cacheRead: 0.1 },
    endpoints: [openai('gpt-4.1-mini-2025-04-14')],
  },
  {
    id: 'o3-mini',
    ownedBy: 'openai',
    created: CATALOGED,
    contextLength: 200_000,
    maxOutput: 100_000,
    pricing: { input: 1.1, output: 4.4, cacheRead: 0.55 },
    endpoints: [openai('o3-mini-2025-01-31')],
  },
  {
    id: 'anthropic/claude-sonnet-4',
    ownedBy: 'anthropic',
    created: CATALOGED,
    contextLength: 200_000,
    maxOutput: 64_000,
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    endpoints: [
      {
        provider: 'anthropic',
        upstreamModel: 'claude-sonnet-4-20250514',
        baseUrl: 'https://api.anthropic.com/v1',
        apiKeyEnv: 'ANTHROPIC_API_KEY',
      },
    ],
  },
  {
    id: 'anthropic/claude-3.5-haiku',
    ownedBy: 'anthropic',
    created: CATALOGED,
    contextLength: 200_000,
    maxOutput: 8_192,
    pricing: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
    endpoints: [
      {
        provider: 'anthropic',
        upstreamModel: 'claude-3-5-haiku-20241022',
        baseUrl: 'https://api.anthropic.com/v1',
        apiKeyEnv: 'ANTHROPIC_API_KEY',
      },
    ],
  },
  {
    id: 'google/gemini-2.0-flash',
    ownedBy: 'google',
    created: CATALOGED,
    contextLength: 1_048_576,
    maxOutput: 8_192,
    pricing: { input: 0.1, output: 0.4, cacheRead: 0.025 },
    endpoints: [
      {
        provider: 'gemini',
        upstreamModel: 'gemini-2.0-flash',
        baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
        apiKeyEnv: 'GEMINI_API_KEY',
      },
    ],
  },
  {
    id: 'mistral/mistral-large',
    ownedBy: 'mistral',
    created: CATALOGED,
    contextLength: 131_072,
    maxOutput: 131_072,
    pricing: { input: 2, output: 6 },
    endpoints: [
      {
        provider: 'mistral',
        upstreamModel: 'mistral-large-latest',
        baseUrl: 'https://api.mistral.ai/v1',
        apiKeyEnv: 'MISTRAL_API_KEY',
      },
    ],
  },
];

export const DEMO_ALIASES: AliasConfig[] = [
  { id: 'fastest-claude', kind: 'fastest', models: ['anthropic/claude-sonnet-4'] },
  { id: 'fastest-gpt', kind: 'fastest', models: ['gpt-4o', 'gpt-4.1'] },
  {
    id: 'svc/auto',
    kind: 'auto',
    tiers: {
      // Preferred model first; the ones after it are the cheaper fallbacks.
      simple: ['gpt-4o-mini', 'google/gemini-2.0-flash'],
      tools: ['gpt-4o', 'gpt-4.1-mini'],
      long: ['gpt-4.1', 'gpt-4.1-mini', 'google/gemini-2.0-flash'],
      reasoning: ['anthropic/claude-sonnet-4', 'o3-mini'],
    },
  },
];
