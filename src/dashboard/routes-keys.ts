/**
 * Virtual keys (the contract leaves this API open; REST-like under /api/keys, every call `?orgId=`):
 *   POST   /api/keys              KeyInput                -> 201 {key: KeyView, value}   (value shown once)
 *   GET    /api/keys                                      -> {keys: KeyView[]}
 *   GET    /api/keys/<id>                                 -> {key}
 *   PATCH  /api/keys/<id>         {name?, budget_usd?, rpm?, tpm?}        -> {key}
 *   DELETE /api/keys/<id>                                 -> {key}  (revoked; key.revoked)
 *   POST   /api/keys/<id>/rotate  {grace_hours?}          -> 201 {key, value, old_key, grace_hours}
 *   POST   /api/keys/bulk-import  {keys: KeyInput[]}      -> 201 {keys: [{key, value|null}]}
 *   POST   /api/keys/bulk-revoke  {ids: string[]}         -> {revoked: KeyView[], already_revoked: string[]}
 */
import type { KeyRecord } from '../store/contract.js';
import { ok, segment } from './http.js';
import { BULK_BODY_BYTES, type DashboardRouter, type OrgCtx } from './router.js';
import { ADMIN_ROLES } from './users-service.js';
import { keyView } from './views.js';

export function keyRoutes(r: DashboardRouter): void {
  const s = r.deps.services;
  const view = async (ctx: OrgCtx, keys: KeyRecord[]): Promise<ReturnType<typeof keyView>[]> => {
    const spend = await s.credits.keySpend(ctx.orgId);
    return keys.map((k) => keyView(k, spend.get(k.id) ?? 0, s.now()));
  };
  const one = async (ctx: OrgCtx, k: KeyRecord): Promise<ReturnType<typeof keyView>> => (await view(ctx, [k]))[0]!;

  r.org('POST', '/api/keys', async (ctx) => {
    const { key, value } = await s.keys.create(ctx.orgId, ctx.userId, ctx.body);
    return ok({ key: await one(ctx, key), value }, 201);
  });

  r.org('GET', '/api/keys', async (ctx) => ok({ keys: await view(ctx, await s.keys.list(ctx.orgId)) }));

  r.org('GET', '/api/keys/:id', async (ctx) => ok({ key: await one(ctx, await s.keys.get(ctx.orgId, segment(ctx.req, 2))) }));

  r.org('PATCH', '/api/keys/:id', async (ctx) => ok({ key: await one(ctx, await s.keys.update(ctx.orgId, segment(ctx.req, 2), ctx.body)) }));

  r.org('DELETE', '/api/keys/:id', async (ctx) => ok({ key: await one(ctx, await s.keys.revoke(ctx.orgId, ctx.userId, segment(ctx.req, 2))) }));

  r.org('POST', '/api/keys/:id/rotate', async (ctx) => {
    const rotated = await s.keys.rotate(ctx.orgId, ctx.userId, segment(ctx.req, 2), ctx.body);
    const [key, old] = await view(ctx, [rotated.key, rotated.old]);
    return ok({ key, value: rotated.value, old_key: old, grace_hours: rotated.graceHours }, 201);
  });

  r.org('POST', '/api/keys/bulk-import', async (ctx) => {
    const created = await s.keys.bulkImport(ctx.orgId, ctx.userId, ctx.body);
    const views = await view(ctx, created.map((c) => c.key));
    // An imported value is known to the caller already and is not echoed; a minted one is shown this once.
    return ok({ keys: created.map((c, i) => ({ key: views[i], value: c.imported ? null : c.value })) }, 201);
  }, ADMIN_ROLES, BULK_BODY_BYTES);

  r.org('POST', '/api/keys/bulk-revoke', async (ctx) => {
    const { revoked, alreadyRevoked } = await s.keys.bulkRevoke(ctx.orgId, ctx.userId, ctx.body);
    return ok({ revoked: await view(ctx, revoked), already_revoked: alreadyRevoked });
  });
}
