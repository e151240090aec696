/**
 * Webhook subscriptions and notification channels, exactly as the contract words them (every call
 * `?orgId=`, Owner or org_admin, reads included):
 *   POST   /api/webhooks            {url, events, secret?}   -> 201 subscription row (no secret)
 *   GET    /api/webhooks                                     -> {webhooks: [row...]}
 *   DELETE /api/webhooks?id=                                 -> {ok: true} | 404 Webhook not found in this organization
 *   GET    /api/notification-channels                        -> {channels: [channel...]}  (config redacted)
 *   POST   /api/notification-channels {type, config, name?}  -> 201 {channel}
 *   PATCH  /api/notification-channels/<id> {config?, name?}  -> {channel}
 *   DELETE /api/notification-channels/<id>                   -> {ok: true}
 *   POST   /api/notification-channels/<id>/test              -> {ok: true, channel} | 429 | 502
 */
import { ok, segment } from './http.js';
import type { DashboardRouter } from './router.js';
import { requireId } from './validate.js';

export function eventRoutes(r: DashboardRouter): void {
  const s = r.deps.services;

  r.org('POST', '/api/webhooks', async (ctx) => ok(await s.webhooks.register(ctx.orgId, ctx.userId, ctx.body), 201));
  r.org('GET', '/api/webhooks', async (ctx) => ok({ webhooks: await s.webhooks.list(ctx.orgId) }));
  r.org('DELETE', '/api/webhooks', async (ctx) => {
    await s.webhooks.remove(ctx.orgId, requireId(ctx.query.get('id'), 'id'));
    return ok({ ok: true });
  });

  r.org('GET', '/api/notification-channels', async (ctx) => ok({ channels: await s.channels.list(ctx.orgId) }));
  r.org('POST', '/api/notification-channels', async (ctx) => ok({ channel: await s.channels.create(ctx.orgId, ctx.body) }, 201));
  r.org('PATCH', '/api/notification-channels/:id', async (ctx) =>
    ok({ channel: await s.channels.update(ctx.orgId, segment(ctx.req, 2), ctx.body) }),
  );
  r.org('DELETE', '/api/notification-channels/:id', async (ctx) => {
    await s.channels.remove(ctx.orgId, segment(ctx.req, 2));
    return ok({ ok: true });
  });
  r.org('POST', '/api/notification-channels/:id/test', async (ctx) =>
    ok({ ok: true, channel: await s.channels.test(ctx.orgId, segment(ctx.req, 2)) }),
  );
}
