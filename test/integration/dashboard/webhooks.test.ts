import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/pipeline/authenticate.js';
import { closedPort, makeTestPki, RECEIVER_HOST, startReceiver, type Receiver, type Received } from '../events/receiver.js';
import { awayFromMinuteEdge, PRIVATE_NAME, startHarness, type Harness, type TestOrg } from './harness.js';

const SECRET = 'whsec-dashboard-1';

let h: Harness;
let rx: Receiver;

/** The receiver's own check: HMAC-SHA256 of the raw bytes as received, compared in constant time. */
function signedBy(secret: string, hit: Received): boolean {
  const header = hit.headers['x-svc-signature'];
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(hit.raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  const pki = makeTestPki([RECEIVER_HOST]);
  rx = await startReceiver(pki, {
    '/hook': (req, res) => res.writeHead(signedBy(SECRET, req) ? 204 : 401).end(),
    '/revoked-only': (_req, res) => res.writeHead(200).end(),
    '/redirect': (_req, res) => res.writeHead(302, { location: `https://${RECEIVER_HOST}:${rx.port}/hook` }).end(),
    '/slow': (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 2_000).unref();
    },
    '/error': (_req, res) => res.writeHead(500).end('nope'),
  });
  h = await startHarness({ ca: pki.ca, timeoutMs: 400 });
});

afterAll(async () => {
  await h.close();
  await rx.close();
});

beforeEach(() => {
  rx.hits.length = 0;
});

const url = (path: string): string => `https://${RECEIVER_HOST}:${rx.port}${path}`;
const hooks = (o: TestOrg, extra = ''): string => `/api/webhooks?orgId=${o.id}${extra}`;

interface Row {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  last_status: number | null;
  last_delivery_at: string | null;
  organization_id: string;
  created_at: string;
}

describe('registration', () => {
  it('stores the row and never returns the secret', async () => {
    const o = await h.org(['org_admin']);
    const r = await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url('/hook'), events: ['key.created'], secret: SECRET } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'last_delivery_at', 'last_status', 'organization_id', 'url']);
    expect(r.json).toMatchObject({ organization_id: o.id, url: url('/hook'), events: ['key.created'], enabled: true, last_status: null, last_delivery_at: null });
    expect(r.json.id).toMatch(/^[0-9a-f-]{36}$/);
    const list = await h.call('GET', hooks(o), { cookie: o.cookie });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(SECRET);
    expect(list.text).not.toContain('secret');
    expect((list.json.webhooks as Row[]).map((w) => w.id)).toEqual([r.json.id]);
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', events: ['key.created'] }, 'url', 'url must start with https://'],
    [{ url: `https://a.example.com/${'x'.repeat(2030)}`, events: ['key.created'] }, 'url', 'url must be at most 2048 characters'],
    [{ url: 'https://10.0.0.1/x', events: ['key.created'] }, 'url', 'url refused: host 10.0.0.1 is a non-public address'],
    [{ url: 'https://169.254.169.254/latest', events: ['key.created'] }, 'url', 'url refused: host 169.254.169.254 is a non-public address'],
    [{ url: 'https://[::1]/x', events: ['key.created'] }, 'url', 'url refused: host [::1] is a non-public address'],
    [{ url: 'https://0x7f000001/x', events: ['key.created'] }, 'url', 'url refused: host 127.0.0.1 is a non-public address'],
    [{ url: 'https://svc.internal/x', events: ['key.created'] }, 'url', 'url refused: host svc.internal is a private name'],
    [{ url: 'https://user:pw@hooks.example.com/x', events: ['key.created'] }, 'url', 'url refused: url must not contain credentials'],
    [{ url: `https://${PRIVATE_NAME}/x`, events: ['key.created'] }, 'url', `url refused: host ${PRIVATE_NAME} resolves to non-public address 10.0.0.7`],
    [{ url: 'https://hooks.example.com/x', events: [] }, 'events', 'events must be a non-empty array of key.created, key.revoked, key.rotated'],
    [{ url: 'https://hooks.example.com/x', events: ['key.deleted'] }, 'events', 'Unknown event key.deleted; allowed: key.created, key.revoked, key.rotated'],
    [{ url: 'https://hooks.example.com/x', events: ['key.created'], secret: 'short' }, 'secret', 'secret must be 8 to 128 characters'],
    [{ url: 'https://hooks.example.com/x', events: ['key.created'], secret: 'x'.repeat(129) }, 'secret', 'secret must be 8 to 128 characters'],
    [{ url: 'https://hooks.example.com/x', events: ['key.created'], enabled: false }, 'enabled', 'Unknown field enabled.'],
  ])('refuses %j with 400 on %s', async (body, param, message) => {
    const o = await h.org(['owner']);
    const r = await h.call('POST', hooks(o), { cookie: o.cookie, body });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: { message, type: 'invalid_request', code: 'invalid_request', param } });
    expect((await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks).toEqual([]);
  });

  it('the 6th registration by one user within a minute is 429', async () => {
    await awayFromMinuteEdge();
    const o = await h.org(['owner']);
    for (let i = 0; i < 5; i++) {
      const r = await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url(`/n${i}`), events: ['key.revoked'] } });
      expect(r.status).toBe(201);
    }
    const sixth = await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url('/n6'), events: ['key.revoked'] } });
    expect(sixth.status).toBe(429);
    expect(sixth.json).toEqual({ error: { message: 'At most 5 webhook registrations per minute per user.', type: 'gateway_error', code: 'rate_limit_exceeded' } });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // Per user: another admin of the same organization may still register.
    const colleague = await h.addUser(o.id, 'org_admin');
    expect((await h.call('POST', hooks(o), { cookie: colleague.cookie, body: { url: url('/n7'), events: ['key.revoked'] } })).status).toBe(201);
  });

  it('DELETE: a foreign or unknown id is 404 with the contract message; an own id is removed', async () => {
    const a = await h.org(['owner']);
    const b = await h.org(['owner']);
    const theirs = await h.call('POST', hooks(b), { cookie: b.cookie, body: { url: url('/hook'), events: ['key.created'] } });
    for (const id of [theirs.json.id as string, '6f1c2a8e-0000-4000-8000-000000000009']) {
      const r = await h.call('DELETE', hooks(a, `&id=${id}`), { cookie: a.cookie });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: { message: 'Webhook not found in this organization', type: 'invalid_request', code: 'not_found' } });
    }
    expect((await h.call('GET', hooks(b), { cookie: b.cookie })).json.webhooks).toHaveLength(1);
    const del = await h.call('DELETE', hooks(b, `&id=${theirs.json.id as string}`), { cookie: b.cookie });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ ok: true });
    expect((await h.call('GET', hooks(b), { cookie: b.cookie })).json.webhooks).toEqual([]);
  });
});

describe('delivery of key events', () => {
  it('each event reaches matching subscriptions, signed over the raw body, with the contract data and bulk flags', async () => {
    const o = await h.org(['owner']);
    const actor = o.users.owner!.id;
    await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url('/hook'), events: ['key.created', 'key.revoked', 'key.rotated'], secret: SECRET } });
    await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url('/revoked-only'), events: ['key.revoked'] } });
    const created = await h.call('POST', `/api/keys?orgId=${o.id}`, { cookie: o.cookie, body: { name: 'hooked', allowed_models: ['gpt-4o-mini'] } });
    const { key, value } = created.json as { key: { id: string; alias: string }; value: string };
    await h.call('POST', `/api/keys/${key.id}/rotate?orgId=${o.id}`, { cookie: o.cookie, body: { grace_hours: 1 } });
    await h.call('DELETE', `/api/keys/${key.id}?orgId=${o.id}`, { cookie: o.cookie });
    const bulk = await h.call('POST', `/api/keys/bulk-import?orgId=${o.id}`, { cookie: o.cookie, body: { keys: [{ name: 'b1' }, { name: 'b2' }] } });
    const ids = (bulk.json.keys as { key: { id: string } }[]).map((k) => k.key.id);
    await h.call('POST', `/api/keys/bulk-revoke?orgId=${o.id}`, { cookie: o.cookie, body: { ids } });
    await h.dash.services.events.idle();

    const signed = rx.at('/hook');
    expect(signed).toHaveLength(7);
    for (const hit of signed) {
      expect(signedBy(SECRET, hit)).toBe(true);
      expect(hit.headers['user-agent']).toBe('svc-Webhook/1.0');
      expect(hit.headers['content-type']).toBe('application/json');
      expect(hit.raw.toString()).not.toContain(value);
      expect(hit.raw.toString()).not.toContain(hashKey(value));
    }
    const bodies = signed.map((x) => JSON.parse(x.raw.toString()) as { event: string; organization_id: string; timestamp: string; data: Record<string, unknown> });
    for (const b of bodies) {
      expect(Object.keys(b).sort()).toEqual(['data', 'event', 'organization_id', 'timestamp']);
      expect(b.organization_id).toBe(o.id);
      expect(Number.isNaN(Date.parse(b.timestamp))).toBe(false);
    }
    const of = (event: string): Record<string, unknown>[] => bodies.filter((b) => b.event === event).map((b) => b.data);
    const alias = key.alias;
    expect(of('key.created')).toEqual(
      expect.arrayContaining([
        { key_name: alias, key_alias: alias, models: ['gpt-4o-mini'], actor_user_id: actor },
        expect.objectContaining({ bulk_import: true, models: [], actor_user_id: actor }),
      ]),
    );
    expect(of('key.created').filter((d) => d.bulk_import === true)).toHaveLength(2);
    expect(of('key.created').filter((d) => !('bulk_import' in d))).toHaveLength(1);
    const rotated = of('key.rotated');
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).toEqual({
      old_key_name: alias,
      new_key_name: expect.stringMatching(/^sk-\.\.\..{4}$/),
      old_key_expires_at: expect.any(String),
      grace_hours: 1,
      actor_user_id: actor,
    });
    expect(of('key.revoked')).toEqual(
      expect.arrayContaining([{ key_name: alias, key_alias: alias, actor_user_id: actor }]),
    );
    expect(of('key.revoked').filter((d) => d.bulk === true)).toHaveLength(2);
    // The revoked-only subscription got the three revocations and nothing else, unsigned (no secret).
    const plain = rx.at('/revoked-only');
    expect(plain.map((x) => (JSON.parse(x.raw.toString()) as { event: string }).event)).toEqual(['key.revoked', 'key.revoked', 'key.revoked']);
    expect(plain.every((x) => x.headers['x-svc-signature'] === undefined)).toBe(true);
    const rows = (await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks as Row[];
    expect(rows.map((r) => r.last_status).sort()).toEqual([200, 204]);
    expect(rows.every((r) => r.last_delivery_at !== null)).toBe(true);
  });

  it('3xx, slow and refused endpoints record 0, a 500 records 500, and the key action succeeds at once', async () => {
    const o = await h.org(['owner']);
    const refused = `https://${RECEIVER_HOST}:${await closedPort()}/gone`;
    for (const u of [url('/redirect'), url('/slow'), refused, url('/error')]) {
      const r = await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: u, events: ['key.created'] } });
      expect(r.status).toBe(201);
    }
    const created = await h.call('POST', `/api/keys?orgId=${o.id}`, { cookie: o.cookie, body: { name: 'despite failures' } });
    expect(created.status).toBe(201);
    // Fire-and-forget: the answer came before the slow endpoint's attempt was over.
    const early = (await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks as Row[];
    expect(early.find((r) => r.url === url('/slow'))?.last_status).toBeNull();
    await h.dash.services.events.idle();
    const rows = (await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks as Row[];
    const status = Object.fromEntries(rows.map((r) => [r.url, r.last_status]));
    expect(status).toEqual({ [url('/redirect')]: 0, [url('/slow')]: 0, [refused]: 0, [url('/error')]: 500 });
    expect(rows.every((r) => r.last_delivery_at !== null)).toBe(true);
    // The redirect was not followed.
    expect(rx.at('/hook')).toHaveLength(0);
    expect((await h.store.listKeys(o.id)).map((k) => k.name)).toEqual(['despite failures']);
  });

  it('a name that turned private after registration is refused at send time (last_status 0, nothing sent)', async () => {
    const o = await h.org(['owner']);
    await h.call('POST', hooks(o), { cookie: o.cookie, body: { url: url('/hook'), events: ['key.created'], secret: SECRET } });
    // Rebind: rewrite the stored URL's host to the name that resolves to 10.0.0.7 (as DNS would change under us).
    const [row] = (await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks as Row[];
    const rec = await h.sealedStore.kvGet<Row & { secret: string }>(`webhook:${o.id}:${row!.id}`);
    await h.sealedStore.kvSet(`webhook:${o.id}:${row!.id}`, { ...rec, url: `https://${PRIVATE_NAME}:${rx.port}/hook` });
    expect((await h.call('POST', `/api/keys?orgId=${o.id}`, { cookie: o.cookie, body: { name: 'k' } })).status).toBe(201);
    await h.dash.services.events.idle();
    const [after] = (await h.call('GET', hooks(o), { cookie: o.cookie })).json.webhooks as Row[];
    expect(after?.last_status).toBe(0);
    expect(rx.hits).toHaveLength(0);
  });
});
