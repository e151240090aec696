/**
 * Security hardening, finding 6 (provider error text): a provider's error names the operator's account
 * ("Rate limit reached ... in organization org-sim"); the client gets our own message, the log keeps the
 * provider's text, and no provider account header is forwarded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { post } from '../../helpers/refusal.js';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway({
    config: { guardrails: { mode: 'off' }, health: { failureThreshold: 1000 } },
    patch: (c) => {
      const m = c.models.find((x) => x.id === 'gpt-4o-mini')!;
      const ep = m.endpoints[0]!;
      m.endpoints = [{ ...ep, baseUrl: `${ep.baseUrl.replace(/\/v1$/, '')}/sec-a/v1` }];
    },
  });
});

afterAll(async () => t.close());
beforeEach(() => t.sim.reset());

describe('finding 6: provider error text', () => {
  for (const stream of [false, true]) {
    it(`an upstream 429 naming the operator's organization reaches the client in our words (stream: ${stream})`, async () => {
      t.sim.configure('/sec-a', { fault: '429', faultCount: -1 });
      const logsBefore = t.logs.length;
      const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', max_tokens: 5, stream, messages: [{ role: 'user', content: 'hi' }] });
      const text = await res.text();
      expect(res.status).toBe(429);
      expect(JSON.parse(text)).toEqual({ error: { message: 'The provider is rate limiting', type: 'gateway_error', code: 'rate_limit_exceeded' } });
      expect(text).not.toContain('org-sim');
      expect(res.headers.get('openai-organization')).toBeNull();
      expect(res.headers.get('x-svc-upstream-status')).toBe('429');
      const logged = t.logs.slice(logsBefore).find((l) => l.includes('"upstream error"'));
      expect(logged).toContain('in organization org-sim');
    });
  }

  it('successful answers carry no provider account header either', async () => {
    const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('openai-organization')).toBeNull();
    expect(JSON.stringify([...res.headers])).not.toContain('org-sim');
  });
});
