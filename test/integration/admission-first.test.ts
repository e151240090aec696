/**
 * Security issue, item 3: rate limits protect the shared worker pool. A key already over its limit is
 * refused at admission, before exact tokenization, svc/auto classification or content scoring; count_tokens
 * and the models routes sit behind the key's limits too. Under a flood of oversized refused requests from
 * one organization, another organization's requests are never refused 503 and keep their latency bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
/** Just under the 4 MiB body cap: about a million prompt tokens, far over gpt-4o-mini's context. */
const BIG = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(155_000) }] });
const SMALL = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of France?' }], max_tokens: 5 };

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ config: { guardrails: { mode: 'enforce' } } });
});
afterAll(async () => t?.close());

async function limitedKey(): Promise<{ value: string; auth: Record<string, string> }> {
  const k = await t.addKey({ rpm: 1 });
  const auth = { authorization: `Bearer ${k.value}` };
  expect((await post(t, CHAT, SMALL, auth)).status).toBe(200); // uses the one request of the minute
  return { value: k.value, auth };
}

describe('admission before expensive work', () => {
  it('an oversized prompt from a key over its RPM is a 429, and the worker pool is never asked', async () => {
    expect(BIG.length).toBeGreaterThan(4_000_000);
    const { auth } = await limitedKey();
    const before = await snapshot(t);
    const tasks = t.gw.deps.pool.tasksStarted;
    await expectRefusal(t, before, await post(t, CHAT, BIG, auth), 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'key' });
    await expectRefusal(t, before, await post(t, CHAT, { ...SMALL, model: 'svc/auto' }, auth), 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'key' });
    expect(t.gw.deps.pool.tasksStarted).toBe(tasks); // no exact count, no classification, no scoring
  });

  it('count_tokens and the models routes are behind the key limits', async () => {
    const { auth } = await limitedKey();
    const before = await snapshot(t);
    const tasks = t.gw.deps.pool.tasksStarted;
    const count = await fetch(`${t.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: BIG.replace('"gpt-4o-mini"', '"gpt-4o-mini","max_tokens":1'),
    });
    await expectRefusal(t, before, count, 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'key' });
    await expectRefusal(t, before, await fetch(`${t.url}/v1/models`, { headers: auth }), 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'key' });
    await expectRefusal(t, before, await fetch(`${t.url}/v1/models/gpt-4o-mini`, { headers: auth }), 429, 'rate_limit_exceeded', {
      'x-svc-limit-source': 'key',
    });
    expect(t.gw.deps.pool.tasksStarted).toBe(tasks);
  });
});

/** Latency bound for the other organization's requests during the flood (loopback, shared 2-core machine). */
const BOUND_MS = 1500;

describe('a flood of refused oversized requests from one organization', () => {
  it("never makes another organization's request fail 503, and keeps its latency under the bound", async () => {
    const { auth: flooder } = await limitedKey();
    await t.addOrg('org-bystander', 50);
    const b = await t.addKey({ orgId: 'org-bystander' });
    const bystander = { authorization: `Bearer ${b.value}` };
    const timed = async (): Promise<{ status: number; ms: number; guard: string | null }> => {
      const at = performance.now();
      const res = await post(t, CHAT, SMALL, bystander);
      await res.text();
      return { status: res.status, ms: performance.now() - at, guard: res.headers.get('x-svc-guardrails') };
    };
    const baseline: number[] = [];
    for (let i = 0; i < 10; i++) baseline.push((await timed()).ms);

    // Six parallel senders, five oversized requests each (bounded), while the bystander keeps asking.
    let flooding = true;
    const floodStatuses: number[] = [];
    const flood = Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 5; i++) {
          const res = await post(t, CHAT, BIG, flooder);
          await res.text();
          floodStatuses.push(res.status);
        }
      }),
    ).finally(() => (flooding = false));
    const during: { status: number; ms: number; guard: string | null }[] = [];
    while (flooding || during.length < 5) during.push(await timed());
    await flood;

    expect(floodStatuses).toEqual(Array(30).fill(429));
    expect(during.every((r) => r.status === 200)).toBe(true);
    expect(during.some((r) => r.guard === 'unavailable')).toBe(false);
    const worst = Math.max(...during.map((r) => r.ms));
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    console.log(
      `bystander latency: baseline median ${median(baseline).toFixed(1)} ms; during flood median ${median(during.map((r) => r.ms)).toFixed(1)} ms, worst ${worst.toFixed(1)} ms over ${during.length} requests`,
    );
    expect(worst).toBeLessThan(BOUND_MS);
  }, 60_000);
});
