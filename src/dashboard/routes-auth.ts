/**
 * Sign-in, sign-out, the current user, and organization membership.
 *   POST   /api/auth/login   {email, password}  -> 200 {user, organizations} + Set-Cookie
 *   POST   /api/auth/logout                     -> 200 {ok: true} + expiring Set-Cookie
 *   GET    /api/auth/me                         -> {user, organizations}
 *   GET    /api/members?orgId                   -> {members: [{user_id, email, role, created_at}]}
 *   POST   /api/members?orgId {email, role}     -> 201 {invitation} for a non-member (see routes-invitations.ts),
 *                                                  200 {member} for a role change of a member
 *   DELETE /api/members?orgId&userId            -> {ok: true}
 */
import { GatewayError, invalid } from '../errors/gateway-error.js';
import { ok, type Reply } from './http.js';
import { currentSession, type DashboardRouter, type SessionCtx } from './router.js';
import type { Services } from './services.js';
import { isRole, userView, type Membership, type Role } from './users-service.js';
import { inviteFrom } from './routes-invitations.js';
import { objectWith, requireId, str } from './validate.js';

/** Sign-in attempts per e-mail address per minute, successful or not (password guessing). */
const LOGINS_PER_IP_PER_MINUTE = 30;
export const LOGINS_PER_MINUTE = 10;

export async function organizations(s: Services, userId: string): Promise<{ id: string; name: string; role: Role }[]> {
  const out: { id: string; name: string; role: Role }[] = [];
  for (const m of await s.users.orgsOf(userId)) {
    const org = await s.orgs.get(m.orgId);
    if (org !== null) out.push({ id: org.id, name: org.name, role: m.role });
  }
  return out;
}

async function me(ctx: SessionCtx): Promise<Reply> {
  const s = ctx.deps.services;
  const user = await s.users.getUser(ctx.userId);
  if (user === null) throw new GatewayError('session_required', { message: 'The signed-in user no longer exists.' });
  return ok({ user: userView(user), organizations: await organizations(s, user.id) });
}

function memberView(m: Membership & { email: string }): Record<string, unknown> {
  return { user_id: m.userId, email: m.email, role: m.role, created_at: new Date(m.createdAt).toISOString() };
}

export function authRoutes(r: DashboardRouter): void {
  const s = r.deps.services;
  const secure = r.deps.secureCookies;

  r.open('POST', '/api/auth/login', async (ctx) => {
    const o = objectWith(ctx.body, ['email', 'password']);
    const email = str(o, 'email', { max: 254 });
    const password = str(o, 'password', { max: 1024 });
    // Limited per client address and per (address, e-mail): a third party cannot lock a user out by failing
    // sign-ins with their e-mail, and one address cannot spray passwords over many accounts.
    const ip = ctx.req.ip;
    const perPair = await s.store.hit(`login:${ip}:${email.trim().toLowerCase()}`, 60_000);
    const perIp = await s.store.hit(`login-ip:${ip}`, 60_000);
    if (perPair > LOGINS_PER_MINUTE || perIp > LOGINS_PER_IP_PER_MINUTE) {
      throw new GatewayError('rate_limit_exceeded', { message: 'Too many sign-in attempts; wait a minute.' });
    }
    const user = await s.users.checkPassword(email, password);
    if (user === null) throw new GatewayError('invalid_credentials');
    const previous = await currentSession(ctx);
    if (previous !== null) await s.sessions.destroy(previous.id);
    const session = await s.sessions.create(user.id);
    return ok({ user: userView(user), organizations: await organizations(s, user.id) }, 200, {
      'set-cookie': s.sessions.cookie(session.id, secure),
    });
  });

  r.open('POST', '/api/auth/logout', async (ctx) => {
    const session = await currentSession(ctx);
    if (session !== null) await s.sessions.destroy(session.id);
    return ok({ ok: true }, 200, { 'set-cookie': s.sessions.clearCookie(secure) });
  });

  r.session('GET', '/api/auth/me', me);

  r.org('GET', '/api/members', async (ctx) => ok({ members: (await s.users.members(ctx.orgId)).map(memberView) }));

  // Adding someone is an invitation (finding 1): the answer is the same 201 for addresses with and without
  // an account (finding 2). Only a role change of an existing member of this organization applies at once.
  r.org('POST', '/api/members', async (ctx) => {
    const o = objectWith(ctx.body, ['email', 'role']);
    if (!isRole(o.role)) throw invalid('role must be owner, org_admin or member', 'role');
    if (o.role === 'owner' && ctx.role !== 'owner') throw new GatewayError('insufficient_role', { message: 'Only an Owner can add an Owner.' });
    const email = str(o, 'email', { max: 254 });
    const user = await s.users.findByEmail(email);
    const prev = user === null ? null : await s.users.membership(ctx.orgId, user.id);
    if (user === null || prev === null) return inviteFrom(ctx, email, o.role);
    if (prev.role === 'owner' && o.role !== 'owner' && ctx.role !== 'owner') {
      throw new GatewayError('insufficient_role', { message: 'Only an Owner can change an Owner.' });
    }
    // The keep-one-Owner rule is enforced atomically inside setRole and removeMember (409).
    const m = await s.users.setRole(ctx.orgId, user.id, o.role);
    return ok({ member: memberView({ ...m, email: user.email }) });
  });

  r.org('DELETE', '/api/members', async (ctx) => {
    const userId = requireId(ctx.query.get('userId'), 'userId');
    const m = await s.users.membership(ctx.orgId, userId);
    if (m === null) throw new GatewayError('not_found', { message: 'Member not found in this organization' });
    if (m.role === 'owner' && ctx.role !== 'owner') throw new GatewayError('insufficient_role', { message: 'Only an Owner can remove an Owner.' });
    await s.users.removeMember(ctx.orgId, userId);
    return ok({ ok: true });
  });
}
