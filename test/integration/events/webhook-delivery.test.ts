import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/events/sign.js';
import { SsrfGuard, type ResolvedAddress, type Resolver } from '../../../src/events/ssrf-guard.js';
import { deliverWebhook, type WebhookEnvelope } from '../../../src/events/webhook-sender.js';
import { closedPort, makeTestPki, RECEIVER_HOST, startReceiver, type Receiver, type TestPki } from './receiver.js';

const SECRET = 'whsec-integration-1';
const TIMEOUT_MS = 300;

const envelope: WebhookEnvelope = {
  event: 'key.rotated',
  organization_id: '3f1c2a8e-0000-4000-8000-000000000002',
  timestamp: '2025-01-02T03:04:05.000Z',
  data: { old_key_name: 'sk-...aaaa', new_key_name: 'sk-...bbbb', old_key_expires_at: null, grace_hours: 24, actor_user_id: 'u\u00e9' },
};

/** The receiver's own check, independent of the code under test: HMAC of the raw bytes, constant-time. */
function receiverAccepts(raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Maps every name to the scripted answers; counts lookups so tests can see DNS is asked once. */
function resolverTo(...answers: string[]): Resolver & { calls: number } {
  const r = {
    calls: 0,
    lookup(): Promise<ResolvedAddress[]> {
      const address = answers[Math.min(r.calls, answers.length - 1)] ?? '127.0.0.1';
      r.calls += 1;
      return Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
    },
  };
  return r;
}

let pki: TestPki;
let rx: Receiver;

beforeAll(async () => {
  pki = makeTestPki([RECEIVER_HOST]);
  rx = await startReceiver(pki, {
    '/hook': (req, res) => {
      const ok = receiverAccepts(req.raw, req.headers['x-svc-signature']) && verifySignature(SECRET, req.raw, String(req.headers['x-svc-signature']));
      res.writeHead(ok ? 204 : 401).end();
    },
    '/unsigned': (_req, res) => res.writeHead(200).end('ok'),
    '/redirect': (_req, res) => res.writeHead(302, { location: `https://${RECEIVER_HOST}:${rx.port}/target` }).end(),
    '/target': (_req, res) => res.writeHead(200).end(),
    '/slow': (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), TIMEOUT_MS * 5).unref();
    },
    '/error': (_req, res) => res.writeHead(500).end('nope'),
  });
});

afterAll(async () => {
  await rx.close();
});

beforeEach(() => {
  rx.hits.length = 0;
});

function guard(resolver: Resolver = resolverTo('127.0.0.1'), withCa = true): SsrfGuard {
  return new SsrfGuard({ resolver, allowAddresses: ['127.0.0.1'], ...(withCa ? { ca: pki.ca } : {}) });
}

const url = (path: string): string => `https://${RECEIVER_HOST}:${rx.port}${path}`;

describe('deliverWebhook against a local HTTPS receiver', () => {
  it('delivers a signed body the receiver verifies over the raw bytes', async () => {
    const resolver = resolverTo('127.0.0.1');
    const r = await deliverWebhook({ url: url('/hook'), secret: SECRET }, envelope, { guard: guard(resolver), timeoutMs: 2_000, serviceName: 'svc' });
    expect(r.status).toBe(204);
    const [hit] = rx.at('/hook');
    expect(hit?.method).toBe('POST');
    expect(hit?.headers['content-type']).toBe('application/json');
    expect(hit?.headers['user-agent']).toBe('svc-Webhook/1.0');
    // Host keeps the name; the socket went to the checked address without a second lookup.
    expect(hit?.headers.host).toBe(`${RECEIVER_HOST}:${rx.port}`);
    expect(resolver.calls).toBe(1);
    expect(JSON.parse(hit?.raw.toString('utf8') ?? '')).toEqual(envelope);
  });

  it('omits the signature header without a secret', async () => {
    const r = await deliverWebhook({ url: url('/unsigned'), secret: null }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(200);
    expect(rx.at('/unsigned')[0]?.headers['x-svc-signature']).toBeUndefined();
  });

  it('a signature made with another secret is rejected by the receiver', async () => {
    const r = await deliverWebhook({ url: url('/hook'), secret: 'some-other-secret' }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(401);
  });

  it('records a 3xx as 0 and never follows it', async () => {
    const r = await deliverWebhook({ url: url('/redirect'), secret: SECRET }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(0);
    expect(rx.at('/redirect')).toHaveLength(1);
    expect(rx.at('/target')).toHaveLength(0);
  });

  it('aborts a slow endpoint at the timeout and records 0', async () => {
    const started = Date.now();
    const r = await deliverWebhook({ url: url('/slow'), secret: null }, envelope, { guard: guard(), timeoutMs: TIMEOUT_MS });
    expect(r.status).toBe(0);
    expect(r.detail).toMatch(/^timeout/);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('records 0 for a refused port', async () => {
    const port = await closedPort();
    const r = await deliverWebhook({ url: `https://${RECEIVER_HOST}:${port}/hook`, secret: null }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(0);
    expect(r.detail).toMatch(/ECONNREFUSED/);
  });

  it('passes a 500 through', async () => {
    const r = await deliverWebhook({ url: url('/error'), secret: null }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(500);
  });

  it('refuses at send time a name that was public at registration and is private now', async () => {
    const rebinding = resolverTo('93.184.216.34', '127.0.0.1');
    const noEscape = new SsrfGuard({ resolver: rebinding, ca: pki.ca });
    expect(await noEscape.resolveAndCheck(new URL(url('/hook')))).toMatchObject({ ok: true, address: '93.184.216.34' });
    const r = await deliverWebhook({ url: url('/hook'), secret: SECRET }, envelope, { guard: noEscape, timeoutMs: 2_000 });
    expect(r).toMatchObject({ status: 0, detail: expect.stringContaining('127.0.0.1') });
    expect(rx.hits).toHaveLength(0);
  });

  it('checks the certificate against the URL host name, not the pinned address', async () => {
    const other = `https://other.test.example:${rx.port}/hook`;
    const r = await deliverWebhook({ url: other, secret: SECRET }, envelope, { guard: guard(), timeoutMs: 2_000 });
    expect(r.status).toBe(0);
    expect(r.detail).toMatch(/altnames|ERR_TLS_CERT_ALTNAME_INVALID/);
    expect(rx.hits).toHaveLength(0);
  });

  it('trusts the test CA only when the guard is given it', async () => {
    const r = await deliverWebhook({ url: url('/hook'), secret: SECRET }, envelope, { guard: guard(resolverTo('127.0.0.1'), false), timeoutMs: 2_000 });
    expect(r.status).toBe(0);
    expect(rx.hits).toHaveLength(0);
  });
});
