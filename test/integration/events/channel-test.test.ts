import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendChannelTest, TEST_NOTIFICATION } from '../../../src/events/channel-sender.js';
import { verifySignature } from '../../../src/events/sign.js';
import { createGuardedDispatcher, SsrfGuard, type Resolver } from '../../../src/events/ssrf-guard.js';
import { closedPort, makeTestPki, RECEIVER_HOST, startReceiver, type Receiver, type TestPki } from './receiver.js';

const SECRET = 'channel-secret-1';
const TIMEOUT_MS = 300;

const loopback: Resolver = { lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) };

let pki: TestPki;
let rx: Receiver;
let guard: SsrfGuard;

beforeAll(async () => {
  pki = makeTestPki([RECEIVER_HOST]);
  rx = await startReceiver(pki, {
    '/webhook': (req, res) => {
      res.writeHead(verifySignature(SECRET, req.raw, String(req.headers['x-svc-signature'])) ? 200 : 401).end();
    },
    '/slack/T1/B1/secret': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
    '/rejects': (_req, res) => res.writeHead(403).end('invalid_token'),
    '/moved': (_req, res) => res.writeHead(301, { location: `https://${RECEIVER_HOST}:${rx.port}/target` }).end(),
    '/target': (_req, res) => res.writeHead(200).end(),
    '/slow': (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), TIMEOUT_MS * 5).unref();
    },
    '/jira/rest/api/2/project/OPS': (req, res) => {
      const expected = `Basic ${Buffer.from('ops@acme.com:jira-token').toString('base64')}`;
      res.writeHead(req.headers.authorization === expected ? 200 : 401, { 'content-type': 'application/json' }).end('{"key":"OPS"}');
    },
  });
  guard = new SsrfGuard({ resolver: loopback, allowAddresses: ['127.0.0.1'], ca: pki.ca });
});

afterAll(async () => {
  await rx.close();
});

beforeEach(() => {
  rx.hits.length = 0;
});

const url = (path: string): string => `https://${RECEIVER_HOST}:${rx.port}${path}`;
const deps = (): { guard: SsrfGuard; timeoutMs: number } => ({ guard, timeoutMs: 2_000 });

describe('sendChannelTest against a local HTTPS receiver', () => {
  it('webhook channel: signed test body verified by the receiver', async () => {
    const r = await sendChannelTest({ type: 'webhook', config: { url: url('/webhook'), secret: SECRET } }, deps());
    expect(r).toEqual({ ok: true, status: 200 });
    const [hit] = rx.at('/webhook');
    expect(JSON.parse(hit?.raw.toString('utf8') ?? '')).toEqual({ ...TEST_NOTIFICATION, test: true });
    expect(hit?.headers['content-type']).toBe('application/json');
  });

  it('webhook channel: a receiver that rejects the signature gives ok:false', async () => {
    const r = await sendChannelTest({ type: 'webhook', config: { url: url('/webhook'), secret: 'wrong-secret-9' } }, deps());
    expect(r).toEqual({ ok: false, status: 401, reason: 'destination_rejected' });
  });

  it('slack channel: text payload posted to webhook_url', async () => {
    const r = await sendChannelTest({ type: 'slack', config: { webhook_url: url('/slack/T1/B1/secret') } }, deps());
    expect(r).toEqual({ ok: true, status: 200 });
    expect(JSON.parse(rx.at('/slack/T1/B1/secret')[0]?.raw.toString('utf8') ?? '')).toEqual({ text: expect.stringContaining(TEST_NOTIFICATION.title) });
  });

  it('jira channel: project lookup with basic auth under the base path', async () => {
    const config = { base_url: url('/jira'), email: 'ops@acme.com', api_token: 'jira-token', project_key: 'OPS' };
    expect(await sendChannelTest({ type: 'jira', config }, deps())).toEqual({ ok: true, status: 200 });
    expect(await sendChannelTest({ type: 'jira', config: { ...config, api_token: 'bad-token' } }, deps())).toEqual({
      ok: false,
      status: 401,
      reason: 'destination_rejected',
    });
  });

  it('failures the route renders as 502 are ok:false', async () => {
    const teams = (path: string) => ({ type: 'teams' as const, config: { webhook_url: path } });
    expect(await sendChannelTest(teams(url('/rejects')), deps())).toEqual({ ok: false, status: 403, reason: 'destination_rejected' });

    expect(await sendChannelTest(teams(url('/moved')), deps())).toEqual({ ok: false, status: 301, reason: 'redirect_refused' });
    expect(rx.at('/target')).toHaveLength(0);

    expect(await sendChannelTest(teams(url('/slow')), { guard, timeoutMs: TIMEOUT_MS })).toMatchObject({ ok: false, status: 0, reason: 'timeout' });

    const port = await closedPort();
    expect(await sendChannelTest(teams(`https://${RECEIVER_HOST}:${port}/x`), deps())).toMatchObject({ ok: false, status: 0, reason: 'unreachable' });
  });

  it('a name resolving to a private address is refused before any connection', async () => {
    const privateDns: Resolver = { lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }, { address: '10.1.1.1', family: 4 }]) };
    const strict = new SsrfGuard({ resolver: privateDns, allowAddresses: ['127.0.0.1'], ca: pki.ca });
    const r = await sendChannelTest({ type: 'slack', config: { webhook_url: url('/slack/T1/B1/secret') } }, { guard: strict, timeoutMs: 2_000 });
    expect(r).toMatchObject({ ok: false, status: 0, reason: 'url_refused', detail: expect.stringContaining('10.1.1.1') });
    expect(rx.hits).toHaveLength(0);
  });
});

describe('createGuardedDispatcher', () => {
  it('connects only for the host it was pinned to', async () => {
    const dispatcher = createGuardedDispatcher({ hostname: RECEIVER_HOST, address: '127.0.0.1', family: 4 }, { ca: pki.ca, timeoutMs: 2_000 });
    try {
      const ok = await request(url('/slack/T1/B1/secret'), { dispatcher, method: 'POST', body: '{}' });
      expect(ok.statusCode).toBe(200);
      await ok.body.dump();
      await expect(request(`https://elsewhere.example:${rx.port}/slack/T1/B1/secret`, { dispatcher })).rejects.toThrow(/pinned/);
    } finally {
      await dispatcher.close();
    }
    expect(rx.hits).toHaveLength(1);
  });
});
