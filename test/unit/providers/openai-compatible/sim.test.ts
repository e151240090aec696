/**
 * The generic OpenAI-compatible adapter (vLLM, Ollama, llama.cpp) against the simulator's OpenAI dialect:
 * the shared suite with a credential, and an open server with no credential at all.
 */
import { describe, expect, it } from 'vitest';
import { openaiCompatibleAdapter } from '../../../../src/providers/openai-compatible/adapter.js';
import { startSimulator } from '../../../../src/sim/server.js';
import { canonical } from '../openai/helpers.js';
import { adapterSimSuite } from '../openai/adapter-sim.suite.js';
import { callAdapter, expectEvents, summarizeStream } from '../openai/sim-harness.js';

adapterSimSuite({
  adapter: openaiCompatibleAdapter,
  model: 'llama-3.1-8b-instruct',
  endpoint: (url, prefix) => ({ provider: 'openai-compatible', upstreamModel: 'llama-3.1-8b-instruct', baseUrl: `${url}${prefix}/v1`, apiKeyEnv: 'KEY' }),
  rawUsage: (raw) => (raw as { usage: Record<string, unknown> }).usage,
  reportsCache: true,
});

describe('an unauthenticated self-hosted server', () => {
  it('apiKeyEnv null: no Authorization header, max_tokens on the wire, the stream finishes', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const ep = { provider: 'openai-compatible', upstreamModel: 'qwen2.5:7b', baseUrl: `${sim.url}/ollama/v1/`, apiKeyEnv: null };
      const events = expectEvents(await callAdapter(openaiCompatibleAdapter, canonical({ stream: true }), ep));
      expect(summarizeStream(events).stopReason).toBe('stop');
      const stats = sim.stats().endpoints['/ollama'];
      expect(stats?.lastHeaders.authorization).toBeUndefined();
      expect(stats?.lastBody).toMatchObject({ model: 'qwen2.5:7b', max_tokens: 256, stream: true });
    } finally {
      await sim.close();
    }
  });
});
