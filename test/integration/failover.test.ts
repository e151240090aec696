import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultKind } from '../../src/sim/server.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
const req = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hello' }],
  max_tokens: 5,
  ...extra,
});

describe('failover rules (svc_fallbacks and same-model endpoints)', () => {
  let t: TestGateway;
  const calls = (prefix: string) => t.sim.stats().endpoints[prefix]?.requests ?? 0;
  beforeAll(async () => {
    t = await startTestGateway({
      // The breaker is tested on its own: here every rule must see every call.
      config: { guardrails: { mode: 'off' }, health: { failureThreshold: 1000 } },
      patch: (c) => {
        const point = (id: string, prefixes: string[]) => {
          const m = c.models.find((x) => x.id === id)!;
          const ep = m.endpoints[0]!;
          m.endpoints = prefixes.map((p) => ({ ...ep, baseUrl: p.startsWith('http') ? p : `${ep.baseUrl.replace(/\/v1$/, '')}${p}/v1` }));
        };
        point('gpt-4o-mini', ['/ep-a']);
        point('gpt-4o', ['/ep-b']);
        point('gpt-4.1-mini', ['/ep-c']);
        // A model served by two endpoints; the first refuses connections (closed port).
        point('gpt-4.1', ['http://127.0.0.1:1/v1', '/ep-d']);
      },
    });
  });
  afterAll(async () => t.close());
  beforeEach(() => t.sim.reset());

  const fault = (prefix: string, f: FaultKind, count = -1) => t.sim.configure(prefix, { fault: f, faultCount: count });

  for (const f of ['429', '503', '529'] as FaultKind[]) {
    it(`upstream ${f} on the primary -> the next svc_fallbacks entry answers (fallback:1, 2 attempts)`, async () => {
      fault('/ep-a', f);
      const res = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4o'] }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-svc-routing')).toBe('fallback:1');
      expect(res.headers.get('x-svc-attempts')).toBe('2');
      expect(res.headers.get('x-svc-model')).toBe('gpt-4o');
      expect(calls('/ep-a')).toBe(1);
      expect(calls('/ep-b')).toBe(1);
    });
  }

  it('connect-phase failure (socket reset) -> next entry', async () => {
    fault('/ep-a', 'reset');
    const res = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4o'] }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-routing')).toBe('fallback:1');
  });

  for (const [f, status] of [
    ['400', 400],
    ['401', 503],
    ['500', 503],
  ] as [FaultKind, number][]) {
    it(`upstream ${f} -> no failover, error returned, $0`, async () => {
      fault('/ep-a', f);
      const before = await snapshot(t);
      const res = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4o'] }));
      expect(res.status).toBe(status);
      expect(calls('/ep-b')).toBe(0);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).not.toMatch(/sk-/);
      const after = await snapshot(t);
      expect(after.balance).toBe(before.balance);
      expect(after.held).toBe(0);
    });
  }

  it('three failing entries -> at most 3 provider calls, the last error, hold released, $0 charged', async () => {
    fault('/ep-a', '503');
    fault('/ep-b', '529');
    fault('/ep-c', '429');
    const before = await snapshot(t);
    const res = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'] }));
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect(t.sim.stats().requests).toBe(3);
    expect(calls('/ep-d')).toBe(0);
    expect(res.headers.get('x-svc-routing')).toBeNull();
    expect(res.headers.get('x-svc-limit-source')).toBeNull();
    const after = await snapshot(t);
    expect(after).toEqual({ ...before, upstream: before.upstream + 3 });
  });

  it("the organization's default fallback list applies when the request names none, and svc_fallbacks replaces it", async () => {
    await t.addOrg('org-fb', 10, { fallbacks: ['gpt-4o'] });
    const k = await t.addKey({ orgId: 'org-fb' });
    const auth = { authorization: `Bearer ${k.value}` };
    fault('/ep-a', '503', 1);
    const viaOrg = await post(t, CHAT, req(), auth);
    expect(viaOrg.status).toBe(200);
    expect(viaOrg.headers.get('x-svc-routing')).toBe('fallback:1');
    expect(viaOrg.headers.get('x-svc-model')).toBe('gpt-4o');
    fault('/ep-a', '503', 1);
    const replaced = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4.1-mini'] }), auth);
    expect(replaced.headers.get('x-svc-model')).toBe('gpt-4.1-mini');
    expect(calls('/ep-b')).toBe(1); // the org list was not used the second time
  });

  it('a concrete model moves between its own endpoints (decision 6) and never to another model', async () => {
    const res = await post(t, CHAT, req({ model: 'gpt-4.1' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-routing')).toBe('direct');
    expect(res.headers.get('x-svc-attempts')).toBe('2');
    expect(res.headers.get('x-svc-model')).toBe('gpt-4.1');
    expect(calls('/ep-d')).toBe(1);
  });

  it('one hold sized for the most expensive candidate, charged at the serving model price', async () => {
    fault('/ep-a', '429');
    const before = await snapshot(t);
    const res = await post(t, CHAT, req({ svc_fallbacks: ['gpt-4o'] }));
    expect(res.status).toBe(200);
    const id = res.headers.get('x-svc-request-id')!;
    await t.gw.deps.settlement.flush();
    const entry = await t.store.getLedgerEntry(t.orgId, id);
    expect(entry?.model).toBe('gpt-4o');
    expect(entry?.requestedModel).toBe('gpt-4o-mini');
    expect(before.balance - (await t.store.getBalance(t.orgId)).balance).toBe(entry!.cost);
  });

  it('a failure after the first byte of a stream is not failed over', async () => {
    fault('/ep-a', 'midstream-reset');
    const res = await post(t, CHAT, req({ stream: true, svc_fallbacks: ['gpt-4o'] }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"error"');
    expect(calls('/ep-b')).toBe(0);
  });
});
