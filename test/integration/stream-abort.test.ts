import { get_encoding } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { framingTokens } from '../../src/billing/estimate.js';
import { costOf } from '../../src/billing/price.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { METRICS_TOKEN, startTestGateway, type TestGateway } from '../helpers/gateway.js';

const pricing = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.pricing!;

describe('stream client disconnect', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  it('aborts the upstream call, settles only what was emitted and releases the hold', async () => {
    t.sim.configure('/', { msPerToken: 40 });
    const threads = t.gw.deps.pool.threads;
    const inlineCounts = t.gw.deps.pool.inlineCounts;
    const ac = new AbortController();
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'long story' }], max_tokens: 200, stream: true }),
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-svc-request-id')!;
    const reader = res.body!.getReader();
    let received = '';
    while ((received.match(/"content":"/g) ?? []).length < 4) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    ac.abort();
    const started = Date.now();
    let entry = null;
    while (!entry && Date.now() - started < 3000) {
      await t.gw.deps.settlement.flush();
      entry = await t.store.getLedgerEntry(t.orgId, id);
      if (!entry) await new Promise((r) => setTimeout(r, 20));
    }
    expect(entry).not.toBeNull();
    expect(entry!.status).toBe('aborted');
    // Emitted tokens only: far fewer than the 200 the full answer would have had.
    expect(entry!.outputTokens).toBeGreaterThanOrEqual(4);
    expect(entry!.outputTokens).toBeLessThan(40);
    // The upstream never reported usage: the input is billed on the exact count, tiktoken's o200k count of the prompt plus
    // the per-message framing, made on the event loop (a short prompt starts no tokenizer thread).
    const tiktoken = get_encoding('o200k_base');
    expect(entry!.inputTokens).toBe(tiktoken.encode_ordinary('long story').length + framingTokens(1));
    tiktoken.free();
    expect(t.gw.deps.pool.inlineCounts).toBe(inlineCounts + 1);
    expect(t.gw.deps.pool.threads).toBe(threads);
    expect(entry!.cost).toBe(
      costOf(pricing, { inputTokens: entry!.inputTokens, outputTokens: entry!.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }),
    );
    expect((await t.store.getBalance(t.orgId)).held).toBe(0);
    // The upstream stream was cut: the simulator saw one request and no more tokens flow afterwards.
    expect(Date.now() - started).toBeLessThan(3000);
    t.sim.configure('/', { msPerToken: 0 });
  });

  it('a client that leaves before any answer is logged and counted as 499 client_closed_request, not as a 503 outage', async () => {
    t.sim.configure('/', { firstByteMs: 1500 });
    try {
      const ac = new AbortController();
      const before = t.logs.length;
      const balanceBefore = await t.store.getBalance(t.orgId);
      const sent = fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], max_tokens: 20 }),
        signal: ac.signal,
      }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 300)); // the upstream call is waiting for its first byte
      ac.abort();
      expect(await sent).toBeInstanceOf(Error);
      let line: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && line === undefined; i++) {
        line = t.logs.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request');
        if (line === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      expect(line).toMatchObject({ status: 499, error_code: 'client_closed_request', route: '/v1/chat/completions' });
      const metrics = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toMatch(/svc_requests_total\{[^}]*status="499"[^}]*code="client_closed_request"[^}]*\} 1/);
      expect(metrics).not.toMatch(/svc_requests_total\{[^}]*status="503"/);
      // The hold was released and nothing was charged: no ledger entry, the balance as it was.
      await t.gw.deps.settlement.flush();
      expect(await t.store.getLedgerEntry(t.orgId, String(line!.request_id))).toBeNull();
      expect(await t.store.getBalance(t.orgId)).toEqual(balanceBefore);
    } finally {
      t.sim.configure('/', { firstByteMs: 0 });
    }
  });
});

describe('stream client disconnect on a cross-format (Anthropic) upstream', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  it('settles at least the tokens emitted, although the upstream reported only partial usage', async () => {
    t.sim.configure('/anthropic', { msPerToken: 40 });
    const ac = new AbortController();
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user', content: 'long story' }], max_tokens: 200, stream: true }),
      signal: ac.signal,
    });
    const id = res.headers.get('x-svc-request-id')!;
    const reader = res.body!.getReader();
    let received = '';
    while ((received.match(/"content":"/g) ?? []).length < 6) received += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    let entry = null;
    for (let i = 0; i < 150 && !entry; i++) {
      await t.gw.deps.settlement.flush();
      entry = await t.store.getLedgerEntry(t.orgId, id);
      if (!entry) await new Promise((r) => setTimeout(r, 20));
    }
    expect(entry?.status).toBe('aborted');
    expect(entry!.outputTokens).toBeGreaterThanOrEqual(5);
    expect(entry!.outputTokens).toBeLessThan(60);
  });
});
