/**
 * Invitations (security hardening, finding 1; design in README "Members and invitations"):
 *   POST   /api/invitations?orgId        {email, role}        -> 201 {invitation}   (e-mails a single-use link)
 *   GET    /api/invitations?orgId                             -> {invitations: [...]}   (pending ones)
 *   DELETE /api/invitations?orgId&id                          -> {ok: true}
 *   POST   /api/invitations/accept       {token, password?}   -> 200 {user, organizations, organization_id}
 * The answer to an invitation never tells whether the address has an account. Accepting needs no session
 * for a new user (the password is set here, and a session starts); an existing user must be signed in.
 */
import { GatewayError } from '../errors/gateway-error.js';
import { ok, type Reply } from './http.js';
import { invitationView } from './invitations-service.js';
import { currentSession, type DashboardRouter, type OrgCtx } from './router.js';
import { organizations } from './routes-auth.js';
import { isRole, userView } from './users-service.js';
import { objectWith, requireId, str } from './validate.js';
import { invalid } from '../errors/gateway-error.js';

/** Creates an invitation for `email` with `role` in the caller's organization (shared with POST /api/members). */
export async function inviteFrom(ctx: OrgCtx, email: string, role: unknown): Promise<Reply> {
  const s = ctx.deps.services;
  if (!isRole(role)) throw invalid('role must be owner, org_admin or member', 'role');
  // Only an Owner makes Owners.
  if (role === 'owner' && ctx.role !== 'owner') throw new GatewayError('insufficient_role', { message: 'Only an Owner can invite an Owner.' });
  const org = await s.orgs.get(ctx.orgId);
  const rec = await s.invitations.invite(ctx.orgId, org?.name ?? ctx.orgId, email, role, ctx.userId);
  return ok({ invitation: invitationView(rec) }, 201);
}

export function invitationRoutes(r: DashboardRouter): void {
  const s = r.deps.services;

  r.org('POST', '/api/invitations', async (ctx) => {
    const o = objectWith(ctx.body, ['email', 'role']);
    return inviteFrom(ctx, str(o, 'email', { max: 254 }), o.role);
  });

  r.org('GET', '/api/invitations', async (ctx) => ok({ invitations: (await s.invitations.pending(ctx.orgId)).map(invitationView) }));

  r.org('DELETE', '/api/invitations', async (ctx) => {
    const id = requireId(ctx.query.get('id'), 'id');
    if (!(await s.invitations.revoke(ctx.orgId, id))) throw new GatewayError('not_found', { message: 'Invitation not found in this organization.' });
    return ok({ ok: true });
  });

  r.open('POST', '/api/invitations/accept', async (ctx) => {
    const o = objectWith(ctx.body, ['token', 'password']);
    const session = await currentSession(ctx);
    const sessionUser = session === null ? null : await s.users.getUser(session.userId);
    const { rec, acceptance } = await s.invitations.accept(o.token, o.password, sessionUser);
    const user = acceptance.user;
    const body = { user: userView(user), organizations: await organizations(s, user.id), organization_id: rec.orgId };
    if (acceptance.kind === 'joined') return ok(body);
    // A new account starts signed in; any other session on this browser ends.
    if (session !== null) await s.sessions.destroy(session.id);
    const fresh = await s.sessions.create(user.id);
    return ok(body, 200, { 'set-cookie': s.sessions.cookie(fresh.id, r.deps.secureCookies) });
  });
}
