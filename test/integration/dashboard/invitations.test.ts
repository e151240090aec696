/**
 * Security hardening, findings 1 and 2: people join an organization only through single-use, expiring
 * invitations e-mailed to them (through a real SMTP exchange with a local sink); an admin never sets a
 * password for anyone and cannot tell addresses with an account from addresses without one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, startHarness, type Harness, type TestOrg } from './harness.js';
import { startSmtpSink, type SmtpSink, type SunkMail } from './smtp-sink.js';

let h: Harness;
let sink: SmtpSink;
let attacker: TestOrg;
let victim: TestOrg;

beforeAll(async () => {
  sink = await startSmtpSink();
  h = await startHarness({ smtp: { host: '127.0.0.1', port: sink.port, from: 'svc@example.com', helo: 'svc-test', timeoutMs: 2_000 } });
  attacker = await h.org(['org_admin']);
  victim = await h.org(['owner', 'org_admin']);
});

afterAll(async () => {
  await h.close();
  await sink.close();
});

/** The token from the newest mail to `to`, waiting for it to arrive. */
async function tokenFor(to: string): Promise<{ token: string; mail: SunkMail }> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const mail = [...sink.mails].reverse().find((m) => m.to.includes(to));
    const m = mail?.data.match(/accept-invitation\?token=([A-Za-z0-9_-]{43})/);
    if (mail !== undefined && m?.[1] !== undefined) return { token: m[1], mail };
    if (Date.now() > deadline) throw new Error(`no invitation mail to ${to}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cookieOf = (v: string | string[] | undefined): string => ((Array.isArray(v) ? v[0] : v) ?? '').split(';')[0] ?? '';
const code = (r: { json: Record<string, unknown> }): unknown => (r.json.error as { code?: unknown } | undefined)?.code;

describe('finding 1: no account pre-hijacking', () => {
  it('an org_admin cannot create a user with a password it chose: 400, no account, the password signs nobody in', async () => {
    const email = `target.${Date.now()}@victim.example`;
    const r = await h.call('POST', `/api/members?orgId=${attacker.id}`, { cookie: attacker.cookie, body: { email, role: 'member', password: PASSWORD } });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ message: 'Unknown field password.', type: 'invalid_request', code: 'invalid_request', param: 'password' });
    expect(await h.dash.services.users.findByEmail(email)).toBeNull();
    // The victim organization later adds the address: the invitee sets the password, not the attacker.
    const add = await h.call('POST', `/api/members?orgId=${victim.id}`, { cookie: victim.cookie, body: { email, role: 'org_admin' } });
    expect(add.status).toBe(201);
    const { token } = await tokenFor(email);
    const accept = await h.call('POST', '/api/invitations/accept', { body: { token, password: 'the invitee own phrase 42' } });
    expect(accept.status).toBe(200);
    const login = await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(401);
    expect(code(login)).toBe('invalid_credentials');
  });

  it('a new user: the link is mailed, nothing exists until accepted, a weak password is refused without spending the link, the link works once', async () => {
    const email = `new.${Date.now()}@example.com`;
    const r = await h.call('POST', `/api/invitations?orgId=${victim.id}`, { cookie: victim.cookie, body: { email, role: 'member' } });
    expect(r.status).toBe(201);
    const inv = r.json.invitation as Record<string, unknown>;
    expect(inv).toEqual({ id: expect.any(String), email, role: 'member', status: 'pending', created_at: expect.any(String), expires_at: expect.any(String) });
    expect(Date.parse(inv.expires_at as string) - Date.parse(inv.created_at as string)).toBe(72 * 3_600_000);
    expect(JSON.stringify(r.json)).not.toMatch(/token/);
    const { token, mail } = await tokenFor(email);
    expect(mail.data).toContain(`${ORIGIN}/accept-invitation?token=${token}`);
    expect(mail.data).toMatch(/Subject: \[svc\] Invitation to org \d+/);
    expect(await h.dash.services.users.findByEmail(email)).toBeNull();
    const listed = await h.call('GET', `/api/invitations?orgId=${victim.id}`, { cookie: victim.cookie });
    expect((listed.json.invitations as { email: string }[]).map((i) => i.email)).toContain(email);

    for (const [password, message] of [
      ['short pw', 'password must be 10 to 256 characters'],
      ['password1234', 'password is too common or too simple; use a longer phrase of unrelated words'],
      ['123456789012', 'password is too common or too simple; use a longer phrase of unrelated words'],
      ['abcabcabcabcabc', 'password must use at least 6 different characters'],
      [`${email.split('@')[0]}-xyz`, 'password must not contain your e-mail address'],
    ] as const) {
      const weak = await h.call('POST', '/api/invitations/accept', { body: { token, password } });
      expect(weak.status, password).toBe(400);
      expect(weak.json.error, password).toEqual({ message, type: 'invalid_request', code: 'invalid_request', param: 'password' });
    }
    const noOrigin = await h.call('POST', '/api/invitations/accept', { body: { token, password: 'a sound new passphrase' }, headers: { origin: null } });
    expect(noOrigin.status).toBe(403);
    expect(code(noOrigin)).toBe('origin_not_allowed');

    const ok = await h.call('POST', '/api/invitations/accept', { body: { token, password: 'a sound new passphrase' } });
    expect(ok.status).toBe(200);
    expect(ok.json.organization_id).toBe(victim.id);
    expect(ok.json.organizations).toEqual([expect.objectContaining({ id: victim.id, role: 'member' })]);
    const me = await h.call('GET', '/api/auth/me', { cookie: cookieOf(ok.headers['set-cookie']) });
    expect((me.json.user as { email: string }).email).toBe(email);
    const replay = await h.call('POST', '/api/invitations/accept', { body: { token, password: 'another sound passphrase' } });
    expect(replay.status).toBe(404);
    expect(replay.json.error).toEqual({ message: 'This invitation is unknown, expired, revoked or already used.', type: 'invalid_request', code: 'not_found' });
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: 'a sound new passphrase' } })).status).toBe(200);
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: 'another sound passphrase' } })).status).toBe(401);
  });

  it('an existing user is a member only after signing in and accepting; another session cannot accept for them', async () => {
    const other = await h.org(['owner']);
    const invitee = other.users.owner!;
    const r = await h.call('POST', `/api/members?orgId=${victim.id}`, { cookie: victim.cookie, body: { email: invitee.email, role: 'org_admin' } });
    expect(r.status).toBe(201);
    expect((await h.call('GET', `/api/keys?orgId=${victim.id}`, { cookie: invitee.cookie })).status).toBe(403);
    const members = await h.call('GET', `/api/members?orgId=${victim.id}`, { cookie: victim.cookie });
    expect((members.json.members as { email: string }[]).map((m) => m.email)).not.toContain(invitee.email);
    const { token } = await tokenFor(invitee.email);
    const anon = await h.call('POST', '/api/invitations/accept', { body: { token, password: 'a password to take over' } });
    expect(anon.status).toBe(401);
    expect(anon.json.error).toEqual({ message: 'Sign in as the invited user to accept this invitation.', type: 'authentication_error', code: 'session_required' });
    const wrongUser = await h.call('POST', '/api/invitations/accept', { cookie: attacker.cookie, body: { token } });
    expect(wrongUser.status).toBe(401);
    expect((await h.call('GET', `/api/keys?orgId=${victim.id}`, { cookie: invitee.cookie })).status).toBe(403);
    const accepted = await h.call('POST', '/api/invitations/accept', { cookie: invitee.cookie, body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.headers['set-cookie']).toBeUndefined();
    expect((await h.call('GET', `/api/keys?orgId=${victim.id}`, { cookie: invitee.cookie })).status).toBe(200);
    // The password the user had still works; nothing about the account changed.
    expect((await h.call('POST', '/api/auth/login', { body: { email: invitee.email, password: PASSWORD } })).status).toBe(200);
  });

  it('expired and revoked invitations are 404, and only an Owner invites an Owner', async () => {
    const late = `late.${Date.now()}@example.com`;
    expect((await h.call('POST', `/api/invitations?orgId=${victim.id}`, { cookie: victim.cookie, body: { email: late, role: 'member' } })).status).toBe(201);
    const { token: lateToken } = await tokenFor(late);
    h.clock.now += 72 * 3_600_000 + 1;
    try {
      const r = await h.call('POST', '/api/invitations/accept', { body: { token: lateToken, password: 'a sound new passphrase' } });
      expect(r.status).toBe(404);
    } finally {
      h.clock.now -= 72 * 3_600_000 + 1;
    }
    const gone = `gone.${Date.now()}@example.com`;
    const created = await h.call('POST', `/api/invitations?orgId=${victim.id}`, { cookie: victim.cookie, body: { email: gone, role: 'member' } });
    const { token } = await tokenFor(gone);
    const id = (created.json.invitation as { id: string }).id;
    const foreign = await h.call('DELETE', `/api/invitations?orgId=${attacker.id}&id=${id}`, { cookie: attacker.cookie });
    expect(foreign.status).toBe(404);
    expect((await h.call('DELETE', `/api/invitations?orgId=${victim.id}&id=${id}`, { cookie: victim.cookie })).status).toBe(200);
    expect((await h.call('POST', '/api/invitations/accept', { body: { token, password: 'a sound new passphrase' } })).status).toBe(404);
    expect(await h.dash.services.users.findByEmail(gone)).toBeNull();
    const asAdmin = await h.call('POST', `/api/invitations?orgId=${victim.id}`, { cookie: victim.users.org_admin!.cookie, body: { email: 'boss@example.com', role: 'owner' } });
    expect(asAdmin.status).toBe(403);
    expect(code(asAdmin)).toBe('insufficient_role');
  });

  it('without an SMTP relay invitations are refused with 503 and nothing is stored', async () => {
    const bare = await startHarness();
    try {
      const o = await bare.org(['owner']);
      const r = await bare.call('POST', `/api/invitations?orgId=${o.id}`, { cookie: o.cookie, body: { email: 'x@example.com', role: 'member' } });
      expect(r.status).toBe(503);
      expect(r.json.error).toEqual({ message: 'Invitations are sent by e-mail and no SMTP relay is configured (SVC_SMTP_HOST).', type: 'gateway_error', code: 'service_unavailable' });
      expect((await bare.call('GET', `/api/invitations?orgId=${o.id}`, { cookie: o.cookie })).json.invitations).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('finding 2: no user directory across tenants', () => {
  it('POST /api/members answers the same for an address with an account elsewhere and for an unknown one', async () => {
    const elsewhere = (await h.org(['owner'])).users.owner!.email;
    const unknown = `nobody.${Date.now()}@example.com`;
    const shape = (r: { status: number; json: Record<string, unknown> }): unknown => {
      const inv = r.json.invitation as Record<string, unknown>;
      return { status: r.status, keys: Object.keys(r.json), inv: { ...inv, id: 'x', email: 'x', created_at: 'x', expires_at: 'x' } };
    };
    const a = await h.call('POST', `/api/members?orgId=${attacker.id}`, { cookie: attacker.cookie, body: { email: elsewhere, role: 'member' } });
    const b = await h.call('POST', `/api/members?orgId=${attacker.id}`, { cookie: attacker.cookie, body: { email: unknown, role: 'member' } });
    expect(a.status).toBe(201);
    expect(shape(a)).toEqual(shape(b));
    expect(a.headers['content-length']).toBe(String(Number(b.headers['content-length']) + elsewhere.length - unknown.length));
    // Neither became a member, and the existing account was not touched.
    const list = await h.call('GET', `/api/members?orgId=${attacker.id}`, { cookie: attacker.cookie });
    expect((list.json.members as { email: string }[]).map((m) => m.email)).toEqual([attacker.users.org_admin!.email]);
  });
});
