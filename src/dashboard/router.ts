/**
 * Dashboard route wrapper: every request passes the same checks in the same order before its handler runs
 * (gateway-api.md, Authentication 5):
 *   1 no virtual key / bearer credential            401 virtual_key_not_accepted
 *   2 writes: Origin (or Referer) = dashboard origin 403 origin_not_allowed
 *   3 POST/PATCH: Content-Type application/json      415
 *   4 session cookie, live and unexpired             401 session_required
 *   5 `orgId` query present                          400
 *   6 role in that organization Owner or org_admin   403 insufficient_role (also for a foreign orgId,
 *     so a non-member cannot tell an existing organization from a missing one)
 */
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { Route } from '../server/app.js';
import type { IncomingRequest } from '../server/types.js';
import { StoreUnavailableError } from '../store/contract.js';
import { parseJson, refuseBearer, requireJson, requireSameOrigin, sendError, sendReply, type Reply } from './http.js';
import type { Services } from './services.js';
import { sessionIdFrom, type Session } from './sessions.js';
import { ADMIN_ROLES, type Role } from './users-service.js';

export interface RouterDeps {
  services: Services;
  origin: string;
  secureCookies: boolean;
}

export interface BaseCtx {
  req: IncomingRequest;
  query: URLSearchParams;
  body: unknown;
  deps: RouterDeps;
}

export interface SessionCtx extends BaseCtx {
  session: Session;
  userId: string;
}

export interface OrgCtx extends SessionCtx {
  orgId: string;
  role: Role;
}

type Method = Route['method'];
const WRITES: readonly Method[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
const JSON_BODIES: readonly Method[] = ['POST', 'PUT', 'PATCH'];

function wrap<C extends BaseCtx>(deps: RouterDeps, method: Method, pattern: string, build: (base: BaseCtx) => Promise<C>, handle: (ctx: C) => Promise<Reply>): Route {
  return {
    method,
    pattern,
    handler: async (req, res) => {
      try {
        refuseBearer(req);
        if (WRITES.includes(method)) requireSameOrigin(req, deps.origin);
        if (JSON_BODIES.includes(method)) requireJson(req);
        const base: BaseCtx = { req, query: new URLSearchParams(req.query), body: JSON_BODIES.includes(method) ? parseJson(req) : undefined, deps };
        sendReply(res, await handle(await build(base)));
      } catch (e) {
        if (e instanceof GatewayError) {
          sendError(res, e);
          return;
        }
        if (e instanceof StoreUnavailableError) {
          sendError(res, new GatewayError('service_unavailable', { message: 'The dashboard store is temporarily unavailable.' }));
          return;
        }
        deps.services.log.error('dashboard handler failed', { method, path: req.path, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
        sendError(res, new GatewayError('internal_error'));
      }
    },
  };
}

/** The live session from the cookie, or null. */
export async function currentSession(base: BaseCtx): Promise<Session | null> {
  const id = sessionIdFrom(base.req.headers.get('cookie'));
  return id === null ? null : base.deps.services.sessions.get(id);
}

async function withSession(base: BaseCtx): Promise<SessionCtx> {
  const session = await currentSession(base);
  if (session === null) throw new GatewayError('session_required', { message: 'Sign in: no valid dashboard session (missing or expired).' });
  return { ...base, session, userId: session.userId };
}

async function withOrg(base: BaseCtx, roles: readonly Role[]): Promise<OrgCtx> {
  const ctx = await withSession(base);
  const orgId = base.query.get('orgId');
  if (orgId === null || orgId === '') throw invalid('orgId is required', 'orgId');
  const m = await base.deps.services.users.membership(orgId, ctx.userId);
  if (m === null || !roles.includes(m.role)) {
    throw new GatewayError('insufficient_role', {
      message: m === null ? 'You are not an Owner or org_admin of this organization.' : `Your role ${m.role} may not do this; it needs ${roles.join(' or ')}.`,
    });
  }
  return { ...ctx, orgId, role: m.role };
}

export class DashboardRouter {
  readonly routes: Route[] = [];

  constructor(readonly deps: RouterDeps) {}

  /** No session needed (login, logout). The same-origin and JSON checks still apply. */
  open(method: Method, pattern: string, handle: (ctx: BaseCtx) => Promise<Reply>): void {
    this.routes.push(wrap(this.deps, method, pattern, (b) => Promise.resolve(b), handle));
  }

  session(method: Method, pattern: string, handle: (ctx: SessionCtx) => Promise<Reply>): void {
    this.routes.push(wrap(this.deps, method, pattern, withSession, handle));
  }

  /** Organization-scoped: `orgId` query and one of `roles` (Owner or org_admin unless narrowed). */
  org(method: Method, pattern: string, handle: (ctx: OrgCtx) => Promise<Reply>, roles: readonly Role[] = ADMIN_ROLES): void {
    this.routes.push(wrap(this.deps, method, pattern, (b) => withOrg(b, roles), handle));
  }
}
