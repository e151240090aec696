/** The Azure OpenAI adapter against the simulator's Azure dialect (shared suite + Azure envelope checks). */
import { describe, expect, it } from 'vitest';
import { azureAdapter } from '../../../../src/providers/azure/adapter.js';
import { startSimulator } from '../../../../src/sim/server.js';
import { canonical } from '../openai/helpers.js';
import { adapterSimSuite } from '../openai/adapter-sim.suite.js';
import { callAdapter, expectEvents, summarizeStream } from '../openai/sim-harness.js';

adapterSimSuite({
  adapter: azureAdapter,
  model: 'gpt-4o',
  endpoint: (url, prefix) => ({ provider: 'azure', upstreamModel: 'prod-gpt4o', baseUrl: `${url}${prefix}`, apiKeyEnv: 'KEY' }),
  rawUsage: (raw) => (raw as { usage: Record<string, unknown> }).usage,
  reportsCache: true,
});

describe('azure envelope on the wire', () => {
  it('deployment path, api-version from the baseUrl, api-key header; the prompt-filter chunk is skipped', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      sim.configure('/res', { apiKey: 'k-azure' });
      const ep = { provider: 'azure', upstreamModel: 'dep-1', baseUrl: `${sim.url}/res/openai?api-version=2025-01-01-preview`, apiKeyEnv: 'AZ' };
      const events = expectEvents(await callAdapter(azureAdapter, canonical({ stream: true }), ep, { AZ: 'k-azure' }));
      expect(events[0]).toMatchObject({ type: 'start', upstreamModel: 'dep-1' });
      expect(events[0]).not.toMatchObject({ id: '' });
      expect(summarizeStream(events).text).toMatch(/^Echo: /);
      const stats = sim.stats().endpoints['/res'];
      expect(stats?.lastPath).toBe('/res/openai/deployments/dep-1/chat/completions');
      expect(stats?.lastHeaders['api-key']).toBe('k-azure');
      expect(stats?.lastHeaders.authorization).toBeUndefined();
    } finally {
      await sim.close();
    }
  });
});
