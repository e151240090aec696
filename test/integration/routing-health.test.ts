import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
const ask = (model: string) => ({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 3 });

function pointAt(m: ModelConfig, simUrl: string, prefixes: string[]): void {
  const ep = m.endpoints[0]!;
  m.endpoints = prefixes.map((p) => ({ ...ep, provider: 'openai', apiKeyEnv: null, baseUrl: `${simUrl}${p}/v1` }));
}

describe('endpoint health: circuit breaker and fastest-<family>', () => {
  let t: TestGateway;
  const calls = (p: string) => t.sim.stats().endpoints[p]?.requests ?? 0;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' }, health: { failureThreshold: 2, cooldownMs: 300, probeIntervalMs: 250, alpha: 0.3 } },
      patch: (c) => {
        const simUrl = c.models.find((m) => m.id === 'gpt-4o')!.endpoints[0]!.baseUrl.replace(/\/v1$/, '');
        pointAt(c.models.find((m) => m.id === 'gpt-4.1')!, simUrl, ['/br-a', '/br-b']);
        pointAt(c.models.find((m) => m.id === 'anthropic/claude-sonnet-4')!, simUrl, ['/cl-1', '/cl-2']);
      },
    });
  });
  afterAll(async () => t.close());

  it('opens after consecutive failover-class failures, moves traffic, half-opens after the cool-down, closes on success', async () => {
    t.sim.configure('/br-a', { fault: '503' });
    for (let i = 0; i < 2; i++) {
      const res = await post(t, CHAT, ask('gpt-4.1'));
      expect(res.status).toBe(200); // failed over to /br-b (same model)
      expect(res.headers.get('x-svc-attempts')).toBe('2');
    }
    expect(calls('/br-a')).toBe(2);
    // Breaker open: /br-a is no longer tried.
    for (let i = 0; i < 3; i++) {
      const res = await post(t, CHAT, ask('gpt-4.1'));
      expect(res.headers.get('x-svc-attempts')).toBe('1');
    }
    expect(calls('/br-a')).toBe(2);
    // Recovered upstream; after the cool-down one probe reaches it and closes the breaker.
    t.sim.configure('/br-a', { fault: null });
    await new Promise((r) => setTimeout(r, 350));
    for (let i = 0; i < 4; i++) expect((await post(t, CHAT, ask('gpt-4.1'))).status).toBe(200);
    expect(calls('/br-a')).toBeGreaterThan(2);
  });

  it('fastest-claude moves to the faster endpoint and back within a bounded number of requests', async () => {
    t.sim.configure('/cl-1', { firstByteMs: 5 });
    t.sim.configure('/cl-2', { firstByteMs: 60 });
    const served: string[] = [];
    /** When each served request was sent (ms, performance.now()). */
    const sentAt: number[] = [];
    const one = async (): Promise<void> => {
      const before = { a: calls('/cl-1'), b: calls('/cl-2') };
      const at = performance.now();
      const res = await post(t, CHAT, ask('fastest-claude'));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
      const body = (await res.json()) as { model: string };
      expect(body.model).toBe('fastest-claude');
      served.push(calls('/cl-1') > before.a ? 'cl-1' : 'cl-2');
      sentAt.push(at);
    };
    for (let i = 0; i < 6; i++) await one();
    // Both measured once, then the fast one wins.
    expect(served.slice(2)).toEqual(['cl-1', 'cl-1', 'cl-1', 'cl-1']);
    // cl-1 slows down: traffic moves within 3 requests.
    t.sim.configure('/cl-1', { firstByteMs: 150 });
    served.length = 0;
    for (let i = 0; i < 6; i++) await one();
    const movedAfter = served.indexOf('cl-2');
    expect(movedAfter).toBeGreaterThanOrEqual(0);
    expect(movedAfter).toBeLessThanOrEqual(3);
    // After the move only an exploratory probe (at most one per probe interval) still reaches cl-1.
    expect(served.slice(movedAfter).filter((x) => x === 'cl-1').length).toBeLessThanOrEqual(1);
    // cl-1 recovers: a probe after probeIntervalMs notices and traffic returns.
    t.sim.configure('/cl-1', { firstByteMs: 5 });
    served.length = 0;
    sentAt.length = 0;
    // 20 requests: room for the EWMA to come back when a loaded machine adds noise to every measurement.
    for (let i = 0; i < 20; i++) {
      await one();
      await new Promise((r) => setTimeout(r, 60));
    }
    process.stdout.write(`fastest-claude served sequence after recovery: ${served.join(',')}\n`);
    // Traffic is back on cl-1: in the last 8 requests cl-2 is reached only by its exploratory probe, at most one per
    // probe interval (250 ms after its previous sample, which ends after the previous request to it was sent). How
    // many probes fall in 8 requests depends on how long the requests take on this machine, so the probes are
    // told apart by their spacing, not counted against a fixed share.
    const tail = served.length - 8;
    let lastCl2: number | null = null;
    for (let i = 0; i < served.length; i++) {
      if (served[i] !== 'cl-2') continue;
      if (i >= tail && lastCl2 !== null) expect(sentAt[i]! - lastCl2, `cl-2 reached twice within a probe interval at ${i}: ${served.join(',')}`).toBeGreaterThanOrEqual(240);
      lastCl2 = sentAt[i]!;
    }
    expect(served.slice(tail).filter((x) => x === 'cl-1').length).toBeGreaterThanOrEqual(4);
    expect(served.slice(-2)).toContain('cl-1');
  });
});
