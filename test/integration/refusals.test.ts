import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdToNano } from '../../src/billing/money.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../helpers/refusal.js';

const CHAT = '/v1/chat/completions';
const ok = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 };

describe('refusals before the provider call: status, code, headers, $0, no upstream call', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' }, maxBodyBytes: 64 * 1024, maxJsonDepth: 16 },
      // A model with a tiny context window, for input_too_large within the body cap.
      patch: (c) => void (c.models.find((m) => m.id === 'gpt-4.1-mini')!.contextLength = 50),
    });
  });
  afterAll(async () => t.close());

  describe('401 / 403 authentication and key policy', () => {
    it('missing key', async () => {
      const before = await snapshot(t);
      const res = await fetch(`${t.url}${CHAT}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ok) });
      await expectRefusal(t, before, res, 401, 'invalid_api_key', { 'x-svc-auth-reason': 'unauthorized' });
    });
    it('wrong key', async () => {
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: 'Bearer sk-svc-not-a-real-key-000000000000' });
      const body = await expectRefusal(t, before, res, 401, 'invalid_api_key', { 'x-svc-auth-reason': 'unauthorized' });
      expect(body.error.type).toBe('invalid_api_key');
    });
    it('revoked key bites on the very next request', async () => {
      const k = await t.addKey();
      expect((await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` })).status).toBe(200);
      await t.store.updateKey(t.orgId, k.record.id, { status: 'revoked' });
      await new Promise((r) => setTimeout(r, 30));
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 401, 'invalid_api_key', { 'x-svc-auth-reason': 'key_blocked' });
    });
    it('expired key', async () => {
      const k = await t.addKey({ expiresAt: Date.now() - 1000 });
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 401, 'invalid_api_key', { 'x-svc-auth-reason': 'key_expired' });
    });
    it('IP not allowed -> 403', async () => {
      const k = await t.addKey({ allowedIps: ['10.1.2.0/24'] });
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 403, 'key_ip_not_allowed', { 'x-svc-auth-reason': 'key_ip_not_allowed' });
    });
    it('IP allowed by CIDR passes', async () => {
      const k = await t.addKey({ allowedIps: ['127.0.0.0/8'] });
      expect((await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` })).status).toBe(200);
    });
    it('invalid network policy -> 403 key_network_policy_invalid', async () => {
      const k = await t.addKey({ allowedIps: ['not-an-ip'] });
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 403, 'key_network_policy_invalid', { 'x-svc-auth-reason': 'key_network_policy_invalid' });
    });
    it('route not allowed -> 403 key_route_not_allowed', async () => {
      const k = await t.addKey({ allowedRoutes: ['/v1/models'] });
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 403, 'key_route_not_allowed', { 'x-svc-auth-reason': 'key_route_not_allowed' });
    });
  });

  describe('400 validation', () => {
    const cases: [string, unknown, string | null][] = [
      ['missing model', { messages: ok.messages }, 'invalid_request'],
      ['missing messages', { model: 'gpt-4o-mini' }, 'invalid_request'],
      ['empty messages', { model: 'gpt-4o-mini', messages: [] }, 'invalid_request'],
      ['bad role', { ...ok, messages: [{ role: 'robot', content: 'x' }] }, 'invalid_request'],
      ['temperature > 2', { ...ok, temperature: 2.5 }, 'invalid_request'],
      ['presence_penalty < -2', { ...ok, presence_penalty: -3 }, 'invalid_request'],
      ['max_tokens 0', { ...ok, max_tokens: 0 }, 'invalid_request'],
      ['n 0', { ...ok, n: 0 }, 'invalid_request'],
      ['user over 200 chars', { ...ok, user: 'u'.repeat(201) }, 'invalid_request'],
      ['stream not boolean', { ...ok, stream: 'yes' }, 'invalid_request'],
      ['tools malformed', { ...ok, tools: [{ type: 'function' }] }, 'invalid_request'],
      ['tool message without tool_call_id', { ...ok, messages: [{ role: 'tool', content: 'x' }] }, 'invalid_request'],
      ['unknown svc_ field', { ...ok, svc_bogus: 1 }, null],
      ['svc_guardrails naming a guardrail the org does not own', { ...ok, svc_guardrails: ['pii-filter'] }, 'guardrail_not_found'],
      ['legacy_guardrail_ids naming an unknown guardrail', { ...ok, legacy_guardrail_ids: ['g-1'] }, 'guardrail_not_found'],
      ['svc_guardrails with 9 entries', { ...ok, svc_guardrails: Array.from({ length: 9 }, (_, i) => `g${i}`) }, 'invalid_request'],
      ['unknown svc_prompt_template_id', { ...ok, svc_prompt_template_id: '00000000-0000-4000-8000-000000000000' }, 'invalid_request'],
      ['svc_cache not a boolean', { ...ok, svc_cache: 'no' }, 'invalid_request'],
      ['per-message svc_compress not a boolean', { ...ok, messages: [{ role: 'user', content: 'x', svc_compress: 'no' }] }, 'invalid_request'],
      ['prompt over the model context', { ...ok, model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'word '.repeat(200) }] }, 'input_too_large'],
      ['svc_fallbacks empty', { ...ok, svc_fallbacks: [] }, 'invalid_request'],
      ['svc_fallbacks 5 entries', { ...ok, svc_fallbacks: ['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o'] }, 'invalid_request'],
      ['svc_fallbacks unknown model', { ...ok, svc_fallbacks: ['nope'] }, 'fallback_not_allowed'],
      ['max_tokens over model maximum', { ...ok, max_tokens: 16_385 }, 'max_output_tokens_too_large'],
      ['malformed JSON', '{"model": ', 'invalid_request'],
      ['JSON array body', '[1,2]', 'invalid_request'],
      ['nesting deeper than the cap', `{"model":"gpt-4o-mini","x":${'['.repeat(40)}${']'.repeat(40)}}`, 'invalid_request'],
    ];
    for (const [name, body, code] of cases) {
      it(name, async () => {
        const before = await snapshot(t);
        await expectRefusal(t, before, await post(t, CHAT, body), 400, code);
      });
    }
    it('a 100k-deep nesting bomb is a 400, not a crash', async () => {
      const before = await snapshot(t);
      const res = await post(t, CHAT, '['.repeat(60_000));
      await expectRefusal(t, before, res, 400, 'invalid_request');
    });
    it('svc_fallbacks naming a model the key may not route to', async () => {
      const k = await t.addKey({ allowedModels: ['gpt-4o-mini'] });
      const before = await snapshot(t);
      const res = await post(t, CHAT, { ...ok, svc_fallbacks: ['gpt-4o'] }, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 400, 'fallback_not_allowed');
    });
    it('non-JSON content type', async () => {
      const before = await snapshot(t);
      await expectRefusal(t, before, await post(t, CHAT, ok, { 'content-type': 'text/plain' }), 400, 'invalid_request');
    });
    it('x-svc-compress other than on/off', async () => {
      const before = await snapshot(t);
      await expectRefusal(t, before, await post(t, CHAT, ok, { 'x-svc-compress': 'maybe' }), 400, 'invalid_request');
    });
    it('bad x-svc-tags', async () => {
      const before = await snapshot(t);
      await expectRefusal(t, before, await post(t, CHAT, ok, { 'x-svc-tags': 'no-equals-sign' }), 400, 'invalid_request');
    });
  });

  describe('404 / 413', () => {
    it('unknown model', async () => {
      const before = await snapshot(t);
      await expectRefusal(t, before, await post(t, CHAT, { ...ok, model: 'gpt-99' }), 404, 'model_not_found');
    });
    it('model outside the key scope', async () => {
      const k = await t.addKey({ allowedModels: ['gpt-4o'] });
      const before = await snapshot(t);
      await expectRefusal(t, before, await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` }), 404, 'model_not_found');
    });
    it('body over the cap -> 413 payload_too_large', async () => {
      const before = await snapshot(t);
      const big = { ...ok, messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }] };
      const res = await post(t, CHAT, big);
      await expectRefusal(t, before, res, 413, 'payload_too_large', { 'content-type': 'application/json' });
    });
    it('no route -> 404 not_found from the server layer, with its request id and latency headers', async () => {
      const before = await snapshot(t);
      const res = await post(t, '/v1/no-such-route', ok);
      await expectRefusal(t, before, res, 404, 'not_found', { 'content-type': 'application/json', 'x-svc-latency-ms': '0' });
      expect(res.headers.get('x-request-id')).toBe(res.headers.get('x-svc-request-id'));
    });
  });

  describe('429 admission', () => {
    it('key RPM: the (N+1)th request in the window is refused with x-svc-limit-source key', async () => {
      const k = await t.addKey({ rpm: 2 });
      const auth = { authorization: `Bearer ${k.value}` };
      expect((await post(t, CHAT, ok, auth)).status).toBe(200);
      expect((await post(t, CHAT, ok, auth)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 30));
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, auth);
      await expectRefusal(t, before, res, 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'key' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    });
    it('key TPM -> tpm_limit_exceeded', async () => {
      const k = await t.addKey({ tpm: 10 });
      const before = await snapshot(t);
      const res = await post(t, CHAT, { ...ok, messages: [{ role: 'user', content: 'word '.repeat(100) }] }, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 429, 'tpm_limit_exceeded', { 'x-svc-limit-source': 'key' });
    });
    it('org (plan) RPM', async () => {
      await t.addOrg('org-rpm', 10, { rpm: 1 });
      const k = await t.addKey({ orgId: 'org-rpm' });
      const auth = { authorization: `Bearer ${k.value}` };
      expect((await post(t, CHAT, ok, auth)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 30));
      const before = await snapshot(t, 'org-rpm');
      await expectRefusal(t, before, await post(t, CHAT, ok, auth), 429, 'rate_limit_exceeded', { 'x-svc-limit-source': 'plan' }, 'org-rpm');
    });
    it('concurrency ceiling', async () => {
      const k = await t.addKey({ maxConcurrency: 1 });
      const auth = { authorization: `Bearer ${k.value}` };
      t.sim.configure('/', { firstByteMs: 300 });
      const slow = post(t, CHAT, ok, auth);
      await new Promise((r) => setTimeout(r, 100));
      const res = await post(t, CHAT, ok, auth);
      const body = (await res.json()) as { error: { code: string } };
      expect(res.status).toBe(429);
      expect(body.error.code).toBe('rate_limit_exceeded');
      expect(res.headers.get('x-svc-limit-source')).toBe('key');
      expect((await slow).status).toBe(200);
      t.sim.configure('/', { firstByteMs: 0 });
      // The lease is released after the answer ends: poll rather than guess how long that takes on a loaded machine.
      let status = 0;
      for (const until = Date.now() + 3_000; status !== 200 && Date.now() < until; ) {
        status = (await post(t, CHAT, ok, auth)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(200); // lease released
    });
  });

  describe('402 credit hold', () => {
    it('balance cannot cover the hold -> insufficient_credits, source plan', async () => {
      await t.addOrg('org-poor', 0);
      await t.store.topUp('org-poor', usdToNano(0.0001), 'tiny');
      const k = await t.addKey({ orgId: 'org-poor' });
      const before = await snapshot(t, 'org-poor');
      const res = await post(t, CHAT, { ...ok, max_tokens: 10_000 }, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 402, 'insufficient_credits', { 'x-svc-limit-source': 'plan' }, 'org-poor');
    });
    it('key budget cannot cover the hold -> insufficient_credits, source budget', async () => {
      const k = await t.addKey({ budget: usdToNano(0.000001) });
      const before = await snapshot(t);
      const res = await post(t, CHAT, ok, { authorization: `Bearer ${k.value}` });
      await expectRefusal(t, before, res, 402, 'insufficient_credits', { 'x-svc-limit-source': 'budget' });
    });
  });
});
