/** The Vertex AI adapter against the simulator's Vertex paths (shared suite + envelope checks). */
import { describe, expect, it } from 'vitest';
import { vertexAdapter } from '../../../../src/providers/vertex/adapter.js';
import { startSimulator } from '../../../../src/sim/server.js';
import { canonical } from '../openai/helpers.js';
import { adapterSimSuite } from '../openai/adapter-sim.suite.js';
import { callAdapter, expectResponse } from '../openai/sim-harness.js';

adapterSimSuite({
  adapter: vertexAdapter,
  model: 'gemini-2.0-flash',
  endpoint: (url, prefix) => ({
    provider: 'vertex',
    upstreamModel: 'gemini-2.0-flash-001',
    baseUrl: `${url}${prefix}/v1/projects/sim-project/locations/us-central1`,
    apiKeyEnv: 'KEY',
  }),
  rawUsage: (raw) => (raw as { usageMetadata: Record<string, unknown> }).usageMetadata,
  reportsCache: true,
});

describe('vertex envelope on the wire', () => {
  it('publisher model path under the project/location baseUrl, Bearer token, createTime as created', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      sim.configure('/vx', { apiKey: 'ya29.token' });
      const ep = { provider: 'vertex', upstreamModel: 'gemini-2.5-pro', baseUrl: `${sim.url}/vx/v1/projects/p1/locations/europe-west4/`, apiKeyEnv: 'TOKEN' };
      const before = Math.floor(Date.now() / 1000);
      const { response } = expectResponse(await callAdapter(vertexAdapter, canonical(), ep, { TOKEN: 'ya29.token' }));
      expect(response.created).toBeGreaterThanOrEqual(before);
      expect(response.upstreamModel).toBe('gemini-2.5-pro');
      const stats = sim.stats().endpoints['/vx'];
      expect(stats?.lastPath).toBe('/vx/v1/projects/p1/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent');
      expect(stats?.lastHeaders.authorization).toBe('Bearer ya29.token');
      expect(stats?.lastHeaders['x-goog-api-key']).toBeUndefined();
    } finally {
      await sim.close();
    }
  });
});
