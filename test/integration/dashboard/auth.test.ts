import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, startHarness, type Harness, type TestOrg } from './harness.js';

let h: Harness;
let org: TestOrg;

const BOOT = { email: 'boot.owner@example.com', password: 'bootstrap-secret-1', orgName: 'Acme' };

beforeAll(async () => {
  h = await startHarness({ bootstrap: BOOT });
  org = await h.org(['owner', 'org_admin', 'member']);
});

afterAll(async () => {
  await h.close();
});

function cookieOf(setCookie: string | string[] | undefined): string {
  const v = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return (v ?? '').split(';')[0] ?? '';
}

describe('sign-in and sessions', () => {
  it('bootstrap from options made the first Owner, who signs in and sees the organization', async () => {
    const r = await h.call('POST', '/api/auth/login', { body: { email: BOOT.email, password: BOOT.password } });
    expect(r.status).toBe(200);
    const orgs = r.json.organizations as { name: string; role: string }[];
    expect(orgs).toEqual([expect.objectContaining({ name: 'Acme', role: 'owner' })]);
    // A second bootstrap with the same e-mail is a no-op.
    expect(await h.dash.services.orgs.bootstrap(BOOT)).toEqual({ created: false });
  });

  it('login sets an opaque HttpOnly, Secure, SameSite=Lax session cookie and /me answers with it', async () => {
    const email = org.users.org_admin!.email;
    const r = await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(r.status).toBe(200);
    const set = String(r.headers['set-cookie']);
    expect(set).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; /);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('Secure');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Path=/');
    expect(set).toMatch(/Max-Age=43200/);
    // Opaque: the cookie carries neither the user id nor the e-mail.
    expect(set).not.toContain(org.users.org_admin!.id);
    const me = await h.call('GET', '/api/auth/me', { cookie: cookieOf(r.headers['set-cookie']) });
    expect(me.status).toBe(200);
    expect(me.json.user).toEqual({ id: org.users.org_admin!.id, email });
  });

  it('wrong password and unknown e-mail give the same 401 invalid_credentials', async () => {
    const a = await h.call('POST', '/api/auth/login', { body: { email: org.users.owner!.email, password: 'not the password' } });
    const b = await h.call('POST', '/api/auth/login', { body: { email: 'nobody@example.com', password: 'not the password' } });
    for (const r of [a, b]) {
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ error: { message: 'Wrong e-mail address or password.', type: 'authentication_error', code: 'invalid_credentials' } });
      expect(r.headers['set-cookie']).toBeUndefined();
    }
  });

  it('logout deletes the session server-side: the old cookie is refused afterwards', async () => {
    const login = await h.call('POST', '/api/auth/login', { body: { email: org.users.owner!.email, password: PASSWORD } });
    const cookie = cookieOf(login.headers['set-cookie']);
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie })).status).toBe(200);
    const out = await h.call('POST', '/api/auth/logout', { cookie, body: {} });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^svc_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
    const after = await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie });
    expect(after.status).toBe(401);
    expect((after.json.error as { code: string }).code).toBe('session_required');
  });

  it('an expired session is refused with 401 session_required', async () => {
    const session = await h.dash.services.sessions.create(org.users.owner!.id);
    const cookie = `svc_session=${session.id}`;
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie })).status).toBe(200);
    h.clock.now += 12 * 3_600_000 + 1;
    try {
      const r = await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ error: { message: 'Sign in: no valid dashboard session (missing or expired).', type: 'authentication_error', code: 'session_required' } });
    } finally {
      h.clock.now -= 12 * 3_600_000 + 1;
    }
    // Deleted on sight: turning the clock back does not revive it.
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie })).status).toBe(401);
  });

  it('no cookie and a forged cookie are both 401', async () => {
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`)).status).toBe(401);
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: `svc_session=${'A'.repeat(43)}` })).status).toBe(401);
  });
});

describe('request rules', () => {
  it('a virtual key is refused with 401, even next to a valid session cookie', async () => {
    const attempts: Record<string, string>[] = [{ authorization: 'Bearer sk-svc-abcdefghijklmnopqrstuvwxyz' }, { 'x-api-key': 'sk-svc-abcdefghijklmnopqrstuvwxyz' }];
    for (const headers of attempts) {
      const r = await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: org.cookie, headers });
      expect(r.status).toBe(401);
      expect(r.json.error).toEqual({
        message: 'A virtual key is never accepted on the dashboard API; sign in and use the session cookie.',
        type: 'authentication_error',
        code: 'virtual_key_not_accepted',
      });
    }
  });

  it('a real key minted in this org is refused the same way (no bearer path exists)', async () => {
    const { value } = await h.dash.services.keys.create(org.id, null, { name: 'bearer attempt' });
    const r = await h.call('GET', `/api/keys?orgId=${org.id}`, { headers: { authorization: `Bearer ${value}` } });
    expect(r.status).toBe(401);
    expect((r.json.error as { code: string }).code).toBe('virtual_key_not_accepted');
  });

  it('writes need Origin (or Referer) equal to the dashboard origin: 403 otherwise', async () => {
    const path = `/api/teams?orgId=${org.id}`;
    const body = { name: 'origin test' };
    const missing = await h.call('POST', path, { cookie: org.cookie, body, headers: { origin: null } });
    expect(missing.status).toBe(403);
    expect(missing.json.error).toEqual({ message: 'Origin or Referer header required for this method.', type: 'authentication_error', code: 'origin_not_allowed' });
    const wrong = await h.call('POST', path, { cookie: org.cookie, body, headers: { origin: 'https://evil.example' } });
    expect(wrong.status).toBe(403);
    expect((wrong.json.error as { message: string }).message).toBe('Origin https://evil.example is not the dashboard origin.');
    const lookalike = await h.call('POST', path, { cookie: org.cookie, body, headers: { origin: `${ORIGIN}.evil.example` } });
    expect(lookalike.status).toBe(403);
    const nullOrigin = await h.call('POST', path, { cookie: org.cookie, body, headers: { origin: 'null', referer: `${ORIGIN}/x` } });
    expect(nullOrigin.status).toBe(403);
    const viaReferer = await h.call('POST', path, { cookie: org.cookie, body, headers: { origin: null, referer: `${ORIGIN}/settings/teams` } });
    expect(viaReferer.status).toBe(201);
    const del = await h.call('DELETE', `/api/webhooks?orgId=${org.id}&id=x`, { cookie: org.cookie, headers: { origin: null } });
    expect(del.status).toBe(403);
    // Reads need no Origin.
    expect((await h.call('GET', path, { cookie: org.cookie, headers: { origin: null } })).status).toBe(200);
  });

  it('POST and PATCH need Content-Type application/json: 415 otherwise; malformed JSON is 400', async () => {
    const path = `/api/teams?orgId=${org.id}`;
    const r = await h.call('POST', path, { cookie: org.cookie, raw: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.json.error).toEqual({ message: 'Content-Type must be application/json.', type: 'invalid_request', code: 'invalid_request' });
    const none = await h.call('POST', path, { cookie: org.cookie, raw: '{"name":"x"}', headers: { 'content-type': null } });
    expect(none.status).toBe(415);
    const patch = await h.call('PATCH', `/api/keys/abc?orgId=${org.id}`, { cookie: org.cookie, raw: '{}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(patch.status).toBe(415);
    const charset = await h.call('POST', path, { cookie: org.cookie, raw: '{"name":"cs"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(charset.status).toBe(201);
    const bad = await h.call('POST', path, { cookie: org.cookie, raw: '{"name":' });
    expect(bad.status).toBe(400);
    expect((bad.json.error as { message: string }).message).toBe('The body is not valid JSON.');
  });

  it('a member (below org_admin) gets 403 on reads and writes; org_admin and Owner pass', async () => {
    const member = org.users.member!.cookie;
    for (const [method, path, body] of [
      ['GET', `/api/keys?orgId=${org.id}`, undefined],
      ['GET', `/api/webhooks?orgId=${org.id}`, undefined],
      ['GET', `/api/notification-channels?orgId=${org.id}`, undefined],
      ['GET', `/api/credits?orgId=${org.id}`, undefined],
      ['POST', `/api/keys?orgId=${org.id}`, { name: 'nope' }],
    ] as const) {
      const r = await h.call(method, path, { cookie: member, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.error).toEqual({ message: 'Your role member may not do this; it needs owner or org_admin.', type: 'authentication_error', code: 'insufficient_role' });
    }
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: org.users.org_admin!.cookie })).status).toBe(200);
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: org.users.owner!.cookie })).status).toBe(200);
  });

  it('a foreign or unknown orgId is 403 with the same body; a missing orgId is 400', async () => {
    const other = await h.org(['owner']);
    const foreign = await h.call('GET', `/api/keys?orgId=${other.id}`, { cookie: org.cookie });
    const unknown = await h.call('GET', '/api/keys?orgId=00000000-0000-4000-8000-00000000dead', { cookie: org.cookie });
    for (const r of [foreign, unknown]) {
      expect(r.status).toBe(403);
      expect(r.json.error).toEqual({ message: 'You are not an Owner or org_admin of this organization.', type: 'authentication_error', code: 'insufficient_role' });
    }
    const missing = await h.call('GET', '/api/keys', { cookie: org.cookie });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toEqual({ message: 'orgId is required', type: 'invalid_request', code: 'invalid_request', param: 'orgId' });
  });

  it('members: an org_admin cannot add an Owner; a role change applies at once; the last Owner cannot be removed', async () => {
    const o = await h.org(['owner', 'org_admin']);
    const add = await h.call('POST', `/api/members?orgId=${o.id}`, { cookie: o.users.org_admin!.cookie, body: { email: 'x@example.com', role: 'owner' } });
    expect(add.status).toBe(403);
    // New people arrive through invitations (invitations.test.ts); here one is added directly and re-roled.
    const m = await h.addUser(o.id, 'org_admin');
    const changed = await h.call('POST', `/api/members?orgId=${o.id}`, { cookie: o.users.org_admin!.cookie, body: { email: m.email, role: 'member' } });
    expect(changed.status).toBe(200);
    expect(changed.json.member).toMatchObject({ user_id: m.id, role: 'member' });
    const list = await h.call('GET', `/api/members?orgId=${o.id}`, { cookie: o.cookie });
    expect((list.json.members as { role: string }[]).map((m) => m.role).sort()).toEqual(['member', 'org_admin', 'owner']);
    const last = await h.call('DELETE', `/api/members?orgId=${o.id}&userId=${o.users.owner!.id}`, { cookie: o.cookie });
    expect(last.status).toBe(409);
  });
});

describe('insecure cookies for local development', () => {
  it('omits Secure when secureCookies is off', async () => {
    const dev = await startHarness({ secureCookies: false });
    try {
      const o = await dev.org(['owner']);
      const r = await dev.call('POST', '/api/auth/login', { body: { email: o.users.owner!.email, password: PASSWORD } });
      expect(r.status).toBe(200);
      const set = String(r.headers['set-cookie']);
      expect(set).toContain('HttpOnly');
      expect(set).not.toContain('Secure');
    } finally {
      await dev.close();
    }
  });
});
