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
 *   7 only now the body: at most 64 KiB (bulk import 1 MiB) 413, JSON nested at most 16 deep   400
 */
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { Route } from '../server/app.js';
import type { Handler, IncomingRequest, Refusal, RequestHead, ResponseSink } from '../server/types.js';
import { StoreUnavailableError } from '../store/contract.js';
import { parseJson, refuseBearer, replyHeaders, requireJson, requireSameOrigin, safeJson, sendReply, type Reply } from './http.js';
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

/** Body cap of a dashboard route: its bodies are a few fields (security hardening, finding 4). */
export const DASHBOARD_BODY_BYTES = 64 * 1024;
/** Bulk import carries up to 500 key rows. */
export const BULK_BODY_BYTES = 1024 * 1024;
/** The deepest dashboard body (a channel config inside a body) is 4 levels; 16 leaves room. */
export const DASHBOARD_JSON_DEPTH = 16;

function errorReply(deps: RouterDeps, method: Method, path: string, e: unknown): Reply {
  if (e instanceof GatewayError) return { status: e.status, body: e.toBody(), headers: e.headers };
  if (e instanceof StoreUnavailableError) {
    const err = new GatewayError('service_unavailable', { message: 'The dashboard store is temporarily unavailable.' });
    return { status: err.status, body: err.toBody(), headers: err.headers };
  }
  deps.services.log.error('dashboard handler failed', { method, path, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  const err = new GatewayError('internal_error');
  return { status: err.status, body: err.toBody() };
}

/**
 * Every check that needs no body runs first: bearer, Origin, Content-Type, session, organization role. Only
 * then is a body read (routes with a body are gated: the server holds the body back until this passes) and
 * parsed, with a small cap and a depth limit, so an anonymous caller can make the process parse nothing.
 */
function wrap<C extends BaseCtx>(
  deps: RouterDeps,
  method: Method,
  pattern: string,
  build: (base: BaseCtx) => Promise<C>,
  handle: (ctx: C) => Promise<Reply>,
  maxBodyBytes: number,
): Route {
  const check = async (head: RequestHead): Promise<C> => {
    refuseBearer(head);
    if (WRITES.includes(method)) requireSameOrigin(head, deps.origin);
    if (JSON_BODIES.includes(method)) requireJson(head);
    // Field by field: a request's client address is a getter (read on first use), which a spread would drop.
    const req = { method: head.method, path: head.path, query: head.query, headers: head.headers, ip: head.ip, startedAt: head.startedAt, body: Buffer.alloc(0) };
    return build({ req, query: new URLSearchParams(head.query), body: undefined, deps });
  };
  const run = async (ctx: C, req: IncomingRequest, res: ResponseSink): Promise<void> => {
    try {
      const body = JSON_BODIES.includes(method) ? parseJson(req.body, DASHBOARD_JSON_DEPTH) : undefined;
      sendReply(res, await handle({ ...ctx, req, body }));
    } catch (e) {
      sendReply(res, errorReply(deps, method, req.path, e));
    }
  };
  const route: Route = {
    method,
    pattern,
    handler: async (req, res) => {
      let ctx: C;
      try {
        ctx = await check(req);
      } catch (e) {
        sendReply(res, errorReply(deps, method, req.path, e));
        return;
      }
      await run(ctx, req, res);
    },
  };
  if (!JSON_BODIES.includes(method)) return route;
  return {
    ...route,
    maxBodyBytes,
    gate: async (head): Promise<Handler | Refusal> => {
      try {
        const ctx = await check(head);
        return (req, res) => run(ctx, req, res);
      } catch (e) {
        const r = errorReply(deps, method, head.path, e);
        return { status: r.status, headers: replyHeaders(r), body: safeJson(r.body) };
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
    this.routes.push(wrap(this.deps, method, pattern, (b) => Promise.resolve(b), handle, DASHBOARD_BODY_BYTES));
  }

  session(method: Method, pattern: string, handle: (ctx: SessionCtx) => Promise<Reply>): void {
    this.routes.push(wrap(this.deps, method, pattern, withSession, handle, DASHBOARD_BODY_BYTES));
  }

  /**
   * Organization-scoped: `orgId` query and one of `roles` (Owner or org_admin unless narrowed); `maxBodyBytes`
   * raises the body cap for the one route that needs it (bulk import).
   */
  org(
    method: Method,
    pattern: string,
    handle: (ctx: OrgCtx) => Promise<Reply>,
    roles: readonly Role[] = ADMIN_ROLES,
    maxBodyBytes = DASHBOARD_BODY_BYTES,
  ): void {
    this.routes.push(wrap(this.deps, method, pattern, (b) => withOrg(b, roles), handle, maxBodyBytes));
  }
}
