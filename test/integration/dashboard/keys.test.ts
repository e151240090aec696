import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { Authenticator, hashKey } from '../../../src/pipeline/authenticate.js';
import type { IncomingRequest } from '../../../src/server/types.js';
import { startHarness, type Harness, type TestOrg } from './harness.js';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await h.org(['owner']);
});

afterAll(async () => {
  await h.close();
});

interface KeyJson {
  id: string;
  name: string;
  alias: string;
  status: string;
  expires_at: string | null;
  budget_usd: string | null;
  team_id: string | null;
}

function inferenceRequest(value: string): IncomingRequest {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    query: '',
    headers: new Map([['authorization', `Bearer ${value}`]]),
    ip: '127.0.0.1',
    body: Buffer.alloc(0),
    startedAt: 0,
  };
}

/** The inference side's verdict on a key value: 'ok' or the x-svc-auth-reason. A fresh authenticator has no cache. */
async function verdict(value: string): Promise<string> {
  try {
    await new Authenticator(h.store, 1).authenticate(inferenceRequest(value), '/v1/chat/completions');
    return 'ok';
  } catch (e) {
    if (e instanceof GatewayError) return e.headers['x-svc-auth-reason'] ?? e.code ?? 'error';
    throw e;
  }
}

const keysPath = (o = org): string => `/api/keys?orgId=${o.id}`;
const keyPath = (id: string, suffix = '', o = org): string => `/api/keys/${id}${suffix}?orgId=${o.id}`;

async function create(body: Record<string, unknown>): Promise<{ key: KeyJson; value: string }> {
  const r = await h.call('POST', keysPath(), { cookie: org.cookie, body });
  expect(r.status, r.text).toBe(201);
  return r.json as unknown as { key: KeyJson; value: string };
}

describe('key create, list, revoke', () => {
  it('shows the full value once; list and detail show name and alias only; the store holds only the hash', async () => {
    const { key, value } = await create({ name: 'ci', allowed_models: ['gpt-4o-mini'], rpm: 60, budget_usd: 12.5, budget_warn_at: 0.8, never_compress: true });
    expect(value).toMatch(/^sk-svc-[A-Za-z0-9_-]{40}$/);
    expect(key.alias).toBe(`sk-...${value.slice(-4)}`);
    expect(key).toMatchObject({ name: 'ci', status: 'active', budget_usd: '12.5' });
    const list = await h.call('GET', keysPath(), { cookie: org.cookie });
    const detail = await h.call('GET', keyPath(key.id), { cookie: org.cookie });
    for (const r of [list, detail]) {
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(value);
      expect(r.text).not.toContain(value.slice(7, 20));
      expect(r.text).not.toContain(hashKey(value));
      expect(r.text).not.toContain('"value"');
    }
    expect((list.json.keys as KeyJson[]).find((k) => k.id === key.id)?.alias).toBe(key.alias);
    const stored = await h.store.getKey(org.id, key.id);
    expect(stored?.hash).toBe(hashKey(value));
    expect(stored?.last4).toBe(value.slice(-4));
    expect(JSON.stringify(stored)).not.toContain(value);
    expect(stored).toMatchObject({ budgetWarnAt: 0.8, neverCompress: true, allowedModels: ['gpt-4o-mini'], createdBy: org.users.owner!.id });
    expect(await verdict(value)).toBe('ok');
  });

  it('refuses unknown fields and bad values with 400 naming the field, storing nothing', async () => {
    const before = (await h.store.listKeys(org.id)).length;
    const other = await h.org(['owner']);
    const team = await h.dash.services.credits.createTeam(other.id, { name: 'theirs' });
    for (const [body, param] of [
      [{ name: 'x', colour: 'red' }, 'colour'],
      [{ name: '' }, 'name'],
      [{ name: 'x', budget_warn_at: 0.5 }, 'budget_warn_at'],
      [{ name: 'x', rpm: 1.5 }, 'rpm'],
      [{ name: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips'],
      [{ name: 'x', allowed_routes: ['chat'] }, 'allowed_routes'],
      [{ name: 'x', team_id: team.id }, 'team_id'],
      [{ name: 'x', key_prefix: 'sk-other-' }, 'key_prefix'],
    ] as const) {
      const r = await h.call('POST', keysPath(), { cookie: org.cookie, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatchObject({ type: 'invalid_request', code: 'invalid_request', param });
    }
    expect((await h.store.listKeys(org.id)).length).toBe(before);
  });

  it('revoke: the next inference authentication and admission refuse the key; a second revoke is 409', async () => {
    const { key, value } = await create({ name: 'to revoke' });
    const cached = new Authenticator(h.store, 60_000);
    await cached.authenticate(inferenceRequest(value), '/v1/chat/completions');
    const r = await h.call('DELETE', keyPath(key.id), { cookie: org.cookie });
    expect(r.status).toBe(200);
    expect((r.json.key as KeyJson).status).toBe('revoked');
    expect(await verdict(value)).toBe('key_blocked');
    // A node whose cache still holds the active record is stopped at admission, which re-reads the Store.
    const admit = await h.store.admit({ orgId: org.id, keyId: key.id, requestId: 'r1', now: Date.now(), tokens: 1, scopes: [], leaseTtlMs: 1_000 });
    expect(admit).toEqual({ ok: false, kind: 'key_status', status: 'revoked' });
    const again = await h.call('DELETE', keyPath(key.id), { cookie: org.cookie });
    expect(again.status).toBe(409);
    expect(again.json.error).toEqual({ message: 'Key is already revoked.', type: 'invalid_request', code: 'conflict' });
  });

  it('a key id of another organization is 404 on read, patch, revoke and rotate', async () => {
    const other = await h.org(['owner']);
    const theirs = await h.dash.services.keys.create(other.id, null, { name: 'foreign' });
    const cases = [
      h.call('GET', keyPath(theirs.key.id), { cookie: org.cookie }),
      h.call('PATCH', keyPath(theirs.key.id), { cookie: org.cookie, body: { name: 'mine now' } }),
      h.call('DELETE', keyPath(theirs.key.id), { cookie: org.cookie }),
      h.call('POST', keyPath(theirs.key.id, '/rotate'), { cookie: org.cookie, body: { grace_hours: 1 } }),
    ];
    for (const r of await Promise.all(cases)) {
      expect(r.status).toBe(404);
      expect(r.json.error).toEqual({ message: 'Key not found in this organization', type: 'invalid_request', code: 'not_found' });
    }
    expect((await h.store.getKey(other.id, theirs.key.id))?.status).toBe('active');
  });

  it('patch changes name and budget', async () => {
    const { key } = await create({ name: 'before' });
    const r = await h.call('PATCH', keyPath(key.id), { cookie: org.cookie, body: { name: 'after', budget_usd: 7 } });
    expect(r.status).toBe(200);
    expect(r.json.key).toMatchObject({ name: 'after', budget_usd: '7' });
  });
});

describe('rotate', () => {
  it('returns a new value once; the old key keeps working until grace_hours from now', async () => {
    h.clock.now = Date.now();
    const { key, value } = await create({ name: 'rotating', allowed_models: ['m1'] });
    const r = await h.call('POST', keyPath(key.id, '/rotate'), { cookie: org.cookie, body: { grace_hours: 2 } });
    expect(r.status).toBe(201);
    const body = r.json as { key: KeyJson; value: string; old_key: KeyJson; grace_hours: number };
    expect(body.value).toMatch(/^sk-svc-/);
    expect(body.value).not.toBe(value);
    expect(body.grace_hours).toBe(2);
    expect(body.old_key.expires_at).toBe(new Date(h.clock.now + 2 * 3_600_000).toISOString());
    expect(body.key).toMatchObject({ name: 'rotating', status: 'active', expires_at: null });
    expect((await h.store.getKey(org.id, body.key.id))?.allowedModels).toEqual(['m1']);
    expect(await verdict(value)).toBe('ok');
    expect(await verdict(body.value)).toBe('ok');
  });

  it('after the grace period the old key is refused as expired and the new one still works', async () => {
    h.clock.now = Date.now();
    const { key, value } = await create({ name: 'short grace' });
    const r = await h.call('POST', keyPath(key.id, '/rotate'), { cookie: org.cookie, body: { grace_hours: 0.0001 } });
    expect(r.status).toBe(201);
    const fresh = (r.json as { value: string }).value;
    await new Promise((res) => setTimeout(res, 450));
    expect(await verdict(value)).toBe('key_expired');
    expect(await verdict(fresh)).toBe('ok');
    // The dashboard clock agrees: an expired key cannot be rotated again.
    h.clock.now = Date.now();
    const again = await h.call('POST', keyPath(key.id, '/rotate'), { cookie: org.cookie, body: {} });
    expect(again.status).toBe(409);
  });

  it('grace_hours out of range is 400', async () => {
    const { key } = await create({ name: 'bad grace' });
    const r = await h.call('POST', keyPath(key.id, '/rotate'), { cookie: org.cookie, body: { grace_hours: 721 } });
    expect(r.status).toBe(400);
    expect((r.json.error as { param: string }).param).toBe('grace_hours');
  });
});

describe('bulk import and bulk revoke', () => {
  it('imports rows (minted values shown once, imported values never echoed) and authenticates them', async () => {
    const carried = 'sk-svc-imported0123456789abcdefXYZ';
    const r = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, {
      cookie: org.cookie,
      body: { keys: [{ name: 'row 0' }, { name: 'row 1', value: carried }, { name: 'row 2', rpm: 10 }] },
    });
    expect(r.status).toBe(201);
    const rows = r.json.keys as { key: KeyJson; value: string | null }[];
    expect(rows.map((x) => x.key.name)).toEqual(['row 0', 'row 1', 'row 2']);
    expect(rows[1]?.value).toBeNull();
    expect(r.text).not.toContain(carried);
    expect(rows[1]?.key.alias).toBe('sk-...fXYZ');
    expect(await verdict(carried)).toBe('ok');
    expect(await verdict(rows[0]!.value!)).toBe('ok');
    const dup = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, { cookie: org.cookie, body: { keys: [{ name: 'again', value: carried }] } });
    expect(dup.status).toBe(409);
  });

  it('one bad row refuses the whole import with 400 naming the row', async () => {
    const before = (await h.store.listKeys(org.id)).length;
    const r = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, { cookie: org.cookie, body: { keys: [{ name: 'fine' }, { name: 'bad', tpm: -1 }] } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ param: 'keys[1].tpm' });
    expect((await h.store.listKeys(org.id)).length).toBe(before);
  });

  it('bulk revoke: an unknown id refuses all (404); otherwise revokes and reports already revoked ones', async () => {
    const a = await create({ name: 'br a' });
    const b = await create({ name: 'br b' });
    const miss = await h.call('POST', `/api/keys/bulk-revoke?orgId=${org.id}`, { cookie: org.cookie, body: { ids: [a.key.id, 'nope'] } });
    expect(miss.status).toBe(404);
    expect((await h.store.getKey(org.id, a.key.id))?.status).toBe('active');
    await h.call('DELETE', keyPath(b.key.id), { cookie: org.cookie });
    const r = await h.call('POST', `/api/keys/bulk-revoke?orgId=${org.id}`, { cookie: org.cookie, body: { ids: [a.key.id, b.key.id] } });
    expect(r.status).toBe(200);
    expect((r.json.revoked as KeyJson[]).map((k) => k.id)).toEqual([a.key.id]);
    expect(r.json.already_revoked).toEqual([b.key.id]);
    expect(await verdict(a.value)).toBe('key_blocked');
  });
});
