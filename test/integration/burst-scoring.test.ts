/**
 * A burst of concurrent requests from one organization through the real gateway with guardrails enforcing on a
 * single scoring worker: every request is judged within the scoring deadline and served. With one task in flight
 * per worker the worker sat idle from each task's end until the busy event loop took the result and posted the
 * next, and most of a burst was refused 503 with `x-svc-guardrails: unavailable` (src/pool/pool.ts
 * TASKS_IN_FLIGHT_PER_WORKER). Runs with the serial tests: it loads the machine.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const BURST = 1_200;
let t: TestGateway;
let agent: Agent;

beforeAll(async () => {
  t = await startTestGateway({ creditUsd: 1_000, keepLogs: false, config: { workers: { min: 1, max: 1 }, guardrails: { mode: 'enforce' } } });
  agent = new Agent({ connections: BURST });
  // The worker has loaded its model before the burst.
  const warm = await request(`${t.url}/v1/chat/completions`, {
    dispatcher: agent,
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm up' }], max_tokens: 4 }),
  });
  await warm.body.text();
}, 30_000);

afterAll(async () => {
  await agent.close();
  await t.close();
});

describe('a burst of concurrent requests with guardrails enforcing', () => {
  it(`judges and serves all ${BURST} requests of one organization on one scoring worker`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const res = await request(`${t.url}/v1/chat/completions`, {
          dispatcher: agent,
          method: 'POST',
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
          // Distinct texts: none is answered from the score cache.
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Summarise ticket ${i}: the invoice for order ${i * 7919} was charged twice.` }], max_tokens: 4 }),
        });
        await res.body.text();
        return `${res.statusCode} ${String(res.headers['x-svc-guardrails'])}`;
      }),
    );
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
    expect(counts).toEqual({ '200 pass': BURST });
  }, 60_000);
});
