import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';

describe('per-endpoint upstream timeouts', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        const m = c.models.find((x) => x.id === 'gpt-4o-mini')!;
        m.endpoints = m.endpoints.map((e) => ({ ...e, timeouts: { firstByteMs: 300, idleMs: 300 } }));
      },
    });
  });
  afterAll(async () => t.close());

  it('first byte not within the endpoint timeout -> 503, no failover (not connect-phase), hold released, $0', async () => {
    t.sim.configure('/', { fault: 'slow-first-byte', firstByteMs: 5000, faultCount: 1 });
    const before = await snapshot(t);
    const started = Date.now();
    const res = await post(t, CHAT, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3, svc_fallbacks: ['gpt-4o'] });
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2500); // the 300 ms deadline, well before the 5 s first byte (slack for a loaded machine)
    expect(res.headers.get('x-svc-routing')).toBeNull();
    const after = await snapshot(t);
    expect(after.balance).toBe(before.balance);
    expect(after.held).toBe(0);
    expect(t.sim.stats().endpoints['/']?.byModel['gpt-4o-2024-08-06'] ?? 0).toBe(0);
    t.sim.configure('/', { firstByteMs: 0, fault: null });
  });

  it('an idle gap between stream chunks beyond the endpoint timeout ends the stream with an error event and settles what was emitted', async () => {
    t.sim.configure('/', { msPerToken: 4000 });
    const res = await post(t, CHAT, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 20, stream: true });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-svc-request-id')!;
    const started = Date.now();
    const text = await res.text();
    expect(Date.now() - started).toBeLessThan(2500); // the 300 ms idle deadline, well before the next token at 4 s (slack for a loaded machine)
    expect(text).toContain('"error"');
    await t.gw.deps.settlement.flush();
    const entry = await t.store.getLedgerEntry(t.orgId, id);
    expect(entry?.status).toBe('error');
    expect(entry!.outputTokens).toBeLessThan(20);
    expect((await t.store.getBalance(t.orgId)).held).toBe(0);
    t.sim.configure('/', { msPerToken: 0 });
  });
});
