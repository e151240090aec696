/** The OpenAI adapter against the simulator's OpenAI dialect (shared suite). */
import { openaiAdapter } from '../../../../src/providers/openai/adapter.js';
import { adapterSimSuite } from './adapter-sim.suite.js';

adapterSimSuite({
  adapter: openaiAdapter,
  model: 'gpt-4o-mini',
  endpoint: (url, prefix) => ({ provider: 'openai', upstreamModel: 'gpt-4o-mini', baseUrl: `${url}${prefix}/v1`, apiKeyEnv: 'KEY' }),
  rawUsage: (raw) => (raw as { usage: Record<string, unknown> }).usage,
  reportsCache: true,
});
