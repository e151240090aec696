/** The Gemini API adapter against the simulator's Google dialect (shared suite + Gemini wire checks). */
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../../src/providers/gemini/adapter.js';
import { startSimulator } from '../../../../src/sim/server.js';
import { canonical } from '../openai/helpers.js';
import { adapterSimSuite } from '../openai/adapter-sim.suite.js';
import { callAdapter, expectEvents, expectResponse } from '../openai/sim-harness.js';

adapterSimSuite({
  adapter: geminiAdapter,
  model: 'gemini-2.0-flash',
  endpoint: (url, prefix) => ({ provider: 'gemini', upstreamModel: 'gemini-2.0-flash', baseUrl: `${url}${prefix}/v1beta`, apiKeyEnv: 'KEY' }),
  rawUsage: (raw) => (raw as { usageMetadata: Record<string, unknown> }).usageMetadata,
  reportsCache: true,
});

describe('gemini thinking on the wire', () => {
  it('a thinking request gets thought summaries and signatures back as thinking blocks, stream and not', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const ep = { provider: 'gemini', upstreamModel: 'gemini-2.5-flash', baseUrl: `${sim.url}/g/v1beta`, apiKeyEnv: null };
      const req = canonical({ reasoning: { budgetTokens: 2048 } });
      const headers = { 'x-sim-reasoning-tokens': '12' };
      const { response } = expectResponse(await callAdapter(geminiAdapter, req, ep, {}, headers));
      expect(response.content.map((c) => c.type)).toEqual(['thinking', 'thinking', 'text']);
      expect(response.content[1]).toMatchObject({ type: 'thinking', text: '' });
      expect(response.usage.reasoningTokens).toBe(12);
      const body = sim.stats().endpoints['/g']?.lastBody as { generationConfig: unknown };
      expect(body.generationConfig).toEqual({ maxOutputTokens: 256, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
      const events = expectEvents(await callAdapter(geminiAdapter, { ...req, stream: true }, ep, {}, headers));
      expect(events.filter((e) => e.type === 'signature_delta')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'block_start').map((e) => (e.type === 'block_start' ? e.block.type : ''))).toEqual([
        'thinking',
        'thinking',
        'text',
      ]);
    } finally {
      await sim.close();
    }
  });
});
