import { describe, expect, it } from 'vitest';
import { sendChannelTest } from '../../../src/events/channel-sender.js';
import type { OutboundGuard } from '../../../src/events/outbound.js';
import { signBody, verifySignature } from '../../../src/events/sign.js';
import type { GuardedRequestInit, GuardedResult } from '../../../src/events/ssrf-guard.js';
import { deliverWebhook, type WebhookEnvelope } from '../../../src/events/webhook-sender.js';

interface Call {
  url: string;
  init: GuardedRequestInit;
}

/** A guard that records what it was asked to send and answers from a script. */
function fakeGuard(answer: GuardedResult | (() => Promise<GuardedResult>)): OutboundGuard & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    request(url, init) {
      calls.push({ url, init });
      return typeof answer === 'function' ? answer() : Promise.resolve(answer);
    },
  };
}

const envelope: WebhookEnvelope = {
  event: 'key.created',
  organization_id: '3f1c2a8e-0000-4000-8000-000000000001',
  timestamp: '2025-01-02T03:04:05.000Z',
  data: { key_name: 'sk-...abcd', key_alias: 'caf\u00e9', models: ['gpt-4o'], actor_user_id: 'u1' },
};
const now = (): Date => new Date('2025-01-02T03:04:06.000Z');

function bodyOf(call: Call | undefined): Buffer {
  const b = call?.init.body;
  if (!Buffer.isBuffer(b)) throw new Error('expected a Buffer body');
  return b;
}

describe('deliverWebhook', () => {
  it('posts the envelope once serialised, signed over those exact bytes', async () => {
    const guard = fakeGuard({ kind: 'response', status: 204 });
    const r = await deliverWebhook({ url: 'https://hooks.example.com/h', secret: 'whsec-12345678' }, envelope, { guard, serviceName: 'acme', now });
    expect(r).toEqual({ status: 204, at: '2025-01-02T03:04:06.000Z' });
    const [call] = guard.calls;
    const body = bodyOf(call);
    expect(JSON.parse(body.toString('utf8'))).toEqual(envelope);
    expect(call?.url).toBe('https://hooks.example.com/h');
    expect(call?.init).toMatchObject({
      method: 'POST',
      timeoutMs: 5_000,
      headers: { 'content-type': 'application/json', 'user-agent': 'acme-Webhook/1.0', 'x-svc-signature': signBody('whsec-12345678', body) },
    });
    expect(verifySignature('whsec-12345678', body, call?.init.headers?.['x-svc-signature'])).toBe(true);
  });

  it('sends no signature header without a secret and defaults the service name', async () => {
    const guard = fakeGuard({ kind: 'response', status: 200 });
    await deliverWebhook({ url: 'https://hooks.example.com/h', secret: null }, envelope, { guard });
    expect(guard.calls[0]?.init.headers).toEqual({ 'content-type': 'application/json', 'user-agent': 'svc-Webhook/1.0' });
  });

  it.each([
    [{ kind: 'response', status: 500 }, 500],
    [{ kind: 'response', status: 404 }, 404],
    [{ kind: 'response', status: 301 }, 0],
    [{ kind: 'response', status: 308 }, 0],
    [{ kind: 'refused', reason: 'host resolves to 10.0.0.1' }, 0],
    [{ kind: 'timeout', reason: 'slow' }, 0],
    [{ kind: 'error', reason: 'ECONNREFUSED' }, 0],
  ] as const)('maps %j to last_status %i', async (answer, status) => {
    const r = await deliverWebhook({ url: 'https://hooks.example.com/h', secret: null }, envelope, { guard: fakeGuard(answer), now });
    expect(r.status).toBe(status);
    expect(r.at).toBe('2025-01-02T03:04:06.000Z');
  });

  it('never throws: a throwing guard or an unserialisable envelope give status 0', async () => {
    const throwing = fakeGuard(() => Promise.reject(new Error('boom')));
    await expect(deliverWebhook({ url: 'https://h.example.com/', secret: null }, envelope, { guard: throwing })).resolves.toMatchObject({ status: 0 });
    const bad = { ...envelope, data: { n: 1n } };
    const guard = fakeGuard({ kind: 'response', status: 200 });
    await expect(deliverWebhook({ url: 'https://h.example.com/', secret: null }, bad, { guard })).resolves.toMatchObject({ status: 0 });
    expect(guard.calls).toHaveLength(0);
  });
});

describe('sendChannelTest (request shape)', () => {
  const ok: GuardedResult = { kind: 'response', status: 200 };

  it('webhook: posts the test body, signed when a secret is set', async () => {
    const guard = fakeGuard(ok);
    const r = await sendChannelTest({ type: 'webhook', config: { url: 'https://hooks.example.com/n', secret: 'chan-secret-1' } }, { guard });
    expect(r).toEqual({ ok: true, status: 200 });
    const body = bodyOf(guard.calls[0]);
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ title: expect.any(String), message: expect.any(String), severity: 'info', test: true });
    expect(verifySignature('chan-secret-1', body, guard.calls[0]?.init.headers?.['x-svc-signature'])).toBe(true);
    expect(guard.calls[0]?.init.timeoutMs).toBe(10_000);
  });

  it('slack and teams: a text payload to webhook_url', async () => {
    for (const type of ['slack', 'teams'] as const) {
      const guard = fakeGuard(ok);
      await sendChannelTest({ type, config: { webhook_url: 'https://hooks.example.com/T/B/X' } }, { guard });
      expect(guard.calls[0]?.url).toBe('https://hooks.example.com/T/B/X');
      expect(JSON.parse(bodyOf(guard.calls[0]).toString('utf8'))).toEqual({ text: expect.stringContaining('Test notification') });
      expect(guard.calls[0]?.init.headers?.['x-svc-signature']).toBeUndefined();
    }
  });

  it('jira: GET the project with basic auth, under a base path', async () => {
    const guard = fakeGuard(ok);
    const config = { base_url: 'https://jira.acme.com/jira/', email: 'ops@acme.com', api_token: 'tok:en', project_key: 'OPS' };
    expect(await sendChannelTest({ type: 'jira', config }, { guard })).toEqual({ ok: true, status: 200 });
    expect(guard.calls[0]?.url).toBe('https://jira.acme.com/jira/rest/api/2/project/OPS');
    expect(guard.calls[0]?.init.method).toBe('GET');
    const auth = guard.calls[0]?.init.headers?.authorization ?? '';
    expect(Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString()).toBe('ops@acme.com:tok:en');
  });

  it('email is reported as unsupported here and nothing is sent', async () => {
    const guard = fakeGuard(ok);
    expect(await sendChannelTest({ type: 'email', config: { recipients: 'a@acme.com' } }, { guard })).toEqual({
      ok: false,
      status: 0,
      reason: 'unsupported_channel_type',
    });
    expect(guard.calls).toHaveLength(0);
  });

  it('an invalid config is refused before sending', async () => {
    const guard = fakeGuard(ok);
    const r = await sendChannelTest({ type: 'slack', config: { webhook_url: 'https://192.168.0.10/x' } }, { guard });
    expect(r).toMatchObject({ ok: false, reason: 'invalid_config' });
    expect(guard.calls).toHaveLength(0);
  });

  it.each([
    [{ kind: 'response', status: 302 }, { ok: false, status: 302, reason: 'redirect_refused' }],
    [{ kind: 'response', status: 401 }, { ok: false, status: 401, reason: 'destination_rejected' }],
    [{ kind: 'response', status: 503 }, { ok: false, status: 503, reason: 'destination_rejected' }],
    [{ kind: 'response', status: 202 }, { ok: true, status: 202 }],
    [{ kind: 'refused', reason: 'r' }, { ok: false, status: 0, reason: 'url_refused', detail: 'r' }],
    [{ kind: 'timeout', reason: 't' }, { ok: false, status: 0, reason: 'timeout', detail: 't' }],
    [{ kind: 'error', reason: 'e' }, { ok: false, status: 0, reason: 'unreachable', detail: 'e' }],
  ] as const)('maps %j', async (answer, expected) => {
    const r = await sendChannelTest({ type: 'slack', config: { webhook_url: 'https://hooks.example.com/x' } }, { guard: fakeGuard(answer) });
    expect(r).toEqual(expected);
  });
});
