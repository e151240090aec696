/** The Mistral adapter against the simulator's Mistral dialect (shared suite + Mistral-only wire rules). */
import { describe, expect, it } from 'vitest';
import { mistralAdapter } from '../../../../src/providers/mistral/adapter.js';
import { startSimulator } from '../../../../src/sim/server.js';
import { canonical } from '../openai/helpers.js';
import { adapterSimSuite } from '../openai/adapter-sim.suite.js';
import { callAdapter, expectResponse, summarizeResponse } from '../openai/sim-harness.js';

adapterSimSuite({
  adapter: mistralAdapter,
  model: 'mistral-large-latest',
  endpoint: (url, prefix) => ({ provider: 'mistral', upstreamModel: 'mistral-large-latest', baseUrl: `${url}${prefix}/mistral/v1`, apiKeyEnv: 'KEY' }),
  rawUsage: (raw) => (raw as { usage: Record<string, unknown> }).usage,
  reportsCache: false,
});

describe('mistral wire rules', () => {
  it('a history with foreign tool-call ids, a seed, a developer turn, an author name and a user is accepted (rewritten or dropped)', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const ep = { provider: 'mistral', upstreamModel: 'mistral-small-latest', baseUrl: `${sim.url}/m/mistral/v1`, apiKeyEnv: null };
      const req = canonical({
        system: [{ role: 'developer', text: 'Be brief.' }],
        seed: 42,
        user: 'end-user-7',
        messages: [
          { role: 'user', name: 'ann', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 'call_Q2xvc2VkIGJ5IE9wZW5BSQ', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_Q2xvc2VkIGJ5IE9wZW5BSQ', content: [{ type: 'text', text: 'foggy' }] }] },
        ],
        tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
        toolChoice: { type: 'required' },
      });
      const res = expectResponse(await callAdapter(mistralAdapter, req, ep));
      expect(summarizeResponse(res.response).text).toContain('foggy');
      const body = sim.stats().endpoints['/m']?.lastBody as Record<string, unknown>;
      expect(body).toMatchObject({ random_seed: 42, tool_choice: 'any', max_tokens: 256 });
      expect(body).not.toHaveProperty('user');
      expect(body).not.toHaveProperty('seed');
      expect(body).not.toHaveProperty('stream_options');
    } finally {
      await sim.close();
    }
  });
});
