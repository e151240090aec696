import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/events/sign.js';
import { closedPort, makeTestPki, RECEIVER_HOST, startReceiver, type Receiver } from '../events/receiver.js';
import { awayFromMinuteEdge, PRIVATE_NAME, startHarness, type Harness, type TestOrg } from './harness.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

const SECRET = 'channel-secret-1';

let h: Harness;
let rx: Receiver;
let sink: SmtpSink;

beforeAll(async () => {
  const pki = makeTestPki([RECEIVER_HOST]);
  rx = await startReceiver(pki, {
    '/webhook': (req, res) => res.writeHead(verifySignature(SECRET, req.raw, String(req.headers['x-svc-signature'])) ? 200 : 401).end(),
    '/slack/T1/B1/secret': (_req, res) => res.writeHead(200).end('ok'),
    '/rejects': (_req, res) => res.writeHead(403).end('invalid_token'),
    '/moved': (_req, res) => res.writeHead(301, { location: `https://${RECEIVER_HOST}:${rx.port}/webhook` }).end(),
    '/slow': (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 2_000).unref();
    },
  });
  sink = await startSmtpSink();
  h = await startHarness({ ca: pki.ca, timeoutMs: 400, smtp: { host: '127.0.0.1', port: sink.port, from: 'svc@example.com', helo: 'svc-test' } });
});

afterAll(async () => {
  await h.close();
  await rx.close();
  await sink.close();
});

beforeEach(() => {
  rx.hits.length = 0;
});

const url = (path: string): string => `https://${RECEIVER_HOST}:${rx.port}${path}`;
const base = (o: TestOrg): string => `/api/notification-channels?orgId=${o.id}`;
const one = (o: TestOrg, id: string, suffix = ''): string => `/api/notification-channels/${id}${suffix}?orgId=${o.id}`;

interface Channel {
  id: string;
  type: string;
  name: string | null;
  config: Record<string, string>;
  verified_at: string | null;
}

async function createChannel(o: TestOrg, body: Record<string, unknown>): Promise<Channel> {
  const r = await h.call('POST', base(o), { cookie: o.cookie, body });
  expect(r.status, r.text).toBe(201);
  return r.json.channel as Channel;
}

describe('notification channels', () => {
  it('secrets are redacted on create, list and update responses', async () => {
    const o = await h.org(['org_admin']);
    const wh = await createChannel(o, { type: 'webhook', name: 'ops', config: { url: url('/webhook'), secret: SECRET } });
    expect(wh.config).toEqual({ url: url('/webhook'), secret: '********' });
    const slack = await createChannel(o, { type: 'slack', config: { webhook_url: url('/slack/T1/B1/secret') } });
    expect(slack.config.webhook_url).toBe(`https://${RECEIVER_HOST}:${rx.port}/********`);
    const list = await h.call('GET', base(o), { cookie: o.cookie });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(SECRET);
    expect(list.text).not.toContain('/slack/T1/B1/secret');
    expect((list.json.channels as Channel[]).map((c) => c.id).sort()).toEqual([wh.id, slack.id].sort());
    const patched = await h.call('PATCH', one(o, wh.id), { cookie: o.cookie, body: { name: 'renamed', config: wh.config } });
    expect(patched.status).toBe(200);
    expect(patched.text).not.toContain(SECRET);
    expect(patched.json.channel).toMatchObject({ name: 'renamed', config: { url: url('/webhook'), secret: '********' } });
  });

  it('a round-tripped redacted secret keeps the stored one: the test is signed with it, 200, verified_at stamped', async () => {
    h.clock.now = Date.parse('2030-05-06T07:08:09.000Z');
    const o = await h.org(['owner']);
    const wh = await createChannel(o, { type: 'webhook', config: { url: url('/webhook'), secret: SECRET } });
    await h.call('PATCH', one(o, wh.id), { cookie: o.cookie, body: { config: wh.config } });
    const r = await h.call('POST', one(o, wh.id, '/test'), { cookie: o.cookie, body: {} });
    expect(r.status, r.text).toBe(200);
    expect(r.json.ok).toBe(true);
    expect((r.json.channel as Channel).verified_at).toBe('2030-05-06T07:08:09.000Z');
    const [hit] = rx.at('/webhook');
    expect(JSON.parse(hit!.raw.toString())).toEqual({ title: expect.any(String), message: expect.any(String), severity: 'info', test: true });
    // A new destination never inherits the stored secret: it must be sent again...
    const reaimed = await h.call('PATCH', one(o, wh.id), { cookie: o.cookie, body: { config: { url: url('/slack/T1/B1/secret'), secret: '********' } } });
    expect(reaimed.status).toBe(400);
    // ...and a changed destination is no longer verified.
    const moved = await h.call('PATCH', one(o, wh.id), { cookie: o.cookie, body: { config: { url: url('/slack/T1/B1/secret'), secret: 'a-brand-new-secret' } } });
    expect(moved.status, moved.text).toBe(200);
    expect((moved.json.channel as Channel).verified_at).toBeNull();
  });

  it('refuses bad types, keys, non-public and non-https URLs with 400', async () => {
    const o = await h.org(['owner']);
    for (const [body, param] of [
      [{ type: 'pager', config: {} }, 'type'],
      [{ type: 'webhook', config: { url: url('/webhook'), token: 'x' } }, 'config.token'],
      [{ type: 'webhook', config: { url: 'http://hooks.example.com/x' } }, 'config.url'],
      [{ type: 'slack', config: { webhook_url: `https://${PRIVATE_NAME}/x` } }, 'config.webhook_url'],
      [{ type: 'jira', config: { base_url: 'https://10.1.2.3', email: 'a@b.co', api_token: 't', project_key: 'OPS' } }, 'config.base_url'],
      [{ type: 'email', config: { recipients: 'ops@example.com,not-an-address' } }, 'config.recipients'],
      [{ type: 'email', config: { recipients: 'ops@example.com' }, extra: 1 }, 'extra'],
    ] as const) {
      const r = await h.call('POST', base(o), { cookie: o.cookie, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatchObject({ type: 'invalid_request', param });
    }
    const ch = await createChannel(o, { type: 'email', config: { recipients: 'ops@example.com' } });
    const retype = await h.call('PATCH', one(o, ch.id), { cookie: o.cookie, body: { type: 'slack' } });
    expect(retype.status).toBe(400);
  });

  it('a channel id of another organization is 404 for update, delete and test', async () => {
    const a = await h.org(['owner']);
    const b = await h.org(['owner']);
    const theirs = await createChannel(b, { type: 'webhook', config: { url: url('/webhook'), secret: SECRET } });
    for (const [method, path, body] of [
      ['PATCH', one(a, theirs.id), { name: 'stolen' }],
      ['DELETE', one(a, theirs.id), undefined],
      ['POST', one(a, theirs.id, '/test'), {}],
    ] as const) {
      const r = await h.call(method, path, { cookie: a.cookie, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json).toEqual({ error: { message: 'Notification channel not found in this organization', type: 'invalid_request', code: 'not_found' } });
    }
    // Asking with the owner's orgId but a stranger's session is a role refusal, not a lookup.
    expect((await h.call('DELETE', one(b, theirs.id), { cookie: a.cookie })).status).toBe(403);
    expect(rx.hits).toHaveLength(0);
    expect((await h.call('GET', base(b), { cookie: b.cookie })).json.channels).toHaveLength(1);
    expect((await h.call('DELETE', one(b, theirs.id), { cookie: b.cookie })).json).toEqual({ ok: true });
    expect((await h.call('GET', base(b), { cookie: b.cookie })).json.channels).toEqual([]);
  });

  it('a rejecting, redirecting, slow or unreachable destination gives 502 and no verified_at', async () => {
    const o = await h.org(['owner']);
    const gone = `https://${RECEIVER_HOST}:${await closedPort()}/x`;
    const cases: [string, string][] = [
      [url('/rejects'), 'Channel test failed: the destination rejected the test (HTTP 403).'],
      [url('/moved'), 'Channel test failed: the destination answered with a redirect, which is not followed.'],
      [url('/slow'), 'Channel test failed: the destination did not answer in time.'],
      [gone, 'Channel test failed: the destination is unreachable.'],
    ];
    for (const [u, message] of cases) {
      const ch = await createChannel(o, { type: 'webhook', config: { url: u } });
      const r = await h.call('POST', one(o, ch.id, '/test'), { cookie: o.cookie, body: {} });
      expect(r.status, u).toBe(502);
      expect(r.json).toEqual({ error: { message, type: 'gateway_error', code: 'channel_test_failed' } });
      const [after] = ((await h.call('GET', base(o), { cookie: o.cookie })).json.channels as Channel[]).filter((c) => c.id === ch.id);
      expect(after?.verified_at).toBeNull();
    }
    // The redirect target was never requested.
    expect(rx.at('/webhook')).toHaveLength(0);
  });

  it('an e-mail channel test goes through SMTP to its recipients', async () => {
    const o = await h.org(['owner']);
    const ch = await createChannel(o, { type: 'email', config: { recipients: 'ops@example.com, oncall@example.com' } });
    const before = sink.mails.length;
    const r = await h.call('POST', one(o, ch.id, '/test'), { cookie: o.cookie, body: {} });
    expect(r.status).toBe(200);
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail?.to).toEqual(['ops@example.com', 'oncall@example.com']);
    expect(mail?.data).toContain('Subject: [svc] Test notification');
  });

  it('the 6th test within a minute in one organization is 429', async () => {
    await awayFromMinuteEdge();
    const o = await h.org(['owner']);
    const ch = await createChannel(o, { type: 'slack', config: { webhook_url: url('/slack/T1/B1/secret') } });
    for (let i = 0; i < 5; i++) expect((await h.call('POST', one(o, ch.id, '/test'), { cookie: o.cookie, body: {} })).status).toBe(200);
    const sixth = await h.call('POST', one(o, ch.id, '/test'), { cookie: o.cookie, body: {} });
    expect(sixth.status).toBe(429);
    expect(sixth.json).toEqual({ error: { message: 'At most 5 channel tests per minute per organization.', type: 'gateway_error', code: 'rate_limit_exceeded' } });
    expect(rx.at('/slack/T1/B1/secret')).toHaveLength(5);
    // Per organization, whoever asks: a second admin is refused too.
    const colleague = await h.addUser(o.id, 'org_admin');
    expect((await h.call('POST', one(o, ch.id, '/test'), { cookie: colleague.cookie, body: {} })).status).toBe(429);
  });
});
