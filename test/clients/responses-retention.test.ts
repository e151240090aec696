/**
 * Stored responses are bounded (`responses.maxPerOrg`): an organization keeps its newest ones, and storing one more
 * deletes the oldest. Through the official OpenAI client, on the embedded store: a response pushed out can no longer
 * be retrieved or continued (404, before any upstream call), the newest still can. Entries written before the output
 * was stored once (inside `response` only) are still continued.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesStore } from '../../src/responses-store/responses-store.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MODELS } from './helpers.js';

let t: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  t = await startTestGateway({ config: { guardrails: { mode: 'monitor' }, responses: { maxPerOrg: 2 } } });
  client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t?.close();
});

const upstreamCalls = (): number => t.sim.stats().requests;

describe('stored responses per organization are capped', () => {
  it('the third response stored with a cap of two pushes out the first: 404 on retrieve and on continue; the newest continue', async () => {
    const r1 = await client.responses.create({ model: MODELS.openai, input: 'Tell me about Oslo' });
    const r2 = await client.responses.create({ model: MODELS.openai, input: 'Tell me about Bergen' });
    const r3 = await client.responses.create({ model: MODELS.openai, input: 'Tell me about Trondheim' });
    expect((await client.responses.retrieve(r3.id)).id).toBe(r3.id);
    expect((await client.responses.retrieve(r2.id)).id).toBe(r2.id);
    await expect(client.responses.retrieve(r1.id)).rejects.toMatchObject({ status: 404 });
    const before = upstreamCalls();
    await expect(client.responses.create({ model: MODELS.openai, previous_response_id: r1.id, input: 'And Tromso?' })).rejects.toMatchObject({
      status: 404,
      error: { code: 'not_found', param: 'previous_response_id' },
    });
    expect(upstreamCalls()).toBe(before);
    // The same refusal on the wire: no provider call, no credit held or moved, no cost headers.
    const { expectRefusal, post, snapshot } = await import('../helpers/refusal.js');
    const ledger = await snapshot(t);
    const err = await expectRefusal(t, ledger, await post(t, '/v1/responses', { model: MODELS.openai, previous_response_id: r1.id, input: 'x' }), 404, 'not_found');
    expect((err.error as { param?: string }).param).toBe('previous_response_id');
    const next = await client.responses.create({ model: MODELS.openai, previous_response_id: r3.id, input: 'And Tromso?' });
    expect(next.status).toBe('completed');
    const sent = JSON.stringify(Object.values(t.sim.stats().endpoints).map((e) => e.lastBody));
    expect(sent).toContain('Tell me about Trondheim');
    expect(sent).toContain(r3.output_text.slice(0, 20));
  });

  it('continues an entry stored in the earlier shape (output beside the response) and stores the output once now', async () => {
    const responses = new ResponsesStore(t.store);
    const key = 'responses:{org:org-test}:resp_old';
    const item = { type: 'message', id: 'msg_old_0', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier answer' }] };
    await t.store.kvSet(key, { input: [{ role: 'user', content: 'Earlier question' }], output: [item], response: { id: 'resp_old', output: [item] } }, 60_000);
    const body: Record<string, unknown> = { previous_response_id: 'resp_old', input: [{ type: 'item_reference', id: 'msg_old_0' }] };
    await responses.expand('org-test', body);
    expect(body.input).toEqual([{ role: 'user', content: 'Earlier question' }, item, item]);

    const r = await client.responses.create({ model: MODELS.openai, input: 'Once' });
    await client.responses.retrieve(r.id); // waits for the write
    const stored = await t.store.kvGet<Record<string, unknown>>(`responses:{org:org-test}:${r.id}`);
    expect(stored).not.toBeNull();
    expect(Object.keys(stored!).sort()).toEqual(['input', 'response']);
  });
});
