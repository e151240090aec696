/**
 * A self-hosted model through the whole gateway: catalog `pricing: null`, provider `openai-compatible`,
 * no credential. The chat fast path serves it and reports `x-svc-cost-status: unpriced` with no cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../helpers/gateway.js';
import { post } from '../../../helpers/refusal.js';

describe('openai-compatible behind the gateway', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        const base = c.models[0]!;
        const simUrl = new URL(base.endpoints[0]!.baseUrl).origin;
        c.models.push({
          id: 'self/llama-3.1-8b',
          ownedBy: 'self',
          created: 1735689600,
          contextLength: 131_072,
          maxOutput: 4096,
          pricing: null,
          endpoints: [{ provider: 'openai-compatible', upstreamModel: 'llama3.1:8b', baseUrl: `${simUrl}/ollama/v1`, apiKeyEnv: null }],
        });
      },
    });
  });
  afterAll(async () => t.close());

  it('stream and not: served, unpriced, no cost header, the upstream saw the self-hosted model name', async () => {
    const body = { model: 'self/llama-3.1-8b', messages: [{ role: 'user', content: 'hello' }], max_tokens: 8 };
    const res = await post(t, '/v1/chat/completions', body);
    const json = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.choices[0]?.message.content).toMatch(/^Echo:/);
    expect(res.headers.get('x-svc-cost-status')).toBe('unpriced');
    expect(res.headers.get('x-svc-request-cost')).toBeNull();
    const stats = t.sim.stats().endpoints['/ollama'];
    expect((stats?.lastBody as { model: string }).model).toBe('llama3.1:8b');
    expect(stats?.lastHeaders.authorization).toBeUndefined();

    const streamed = await post(t, '/v1/chat/completions', { ...body, stream: true });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain('data: [DONE]');
  });
});
