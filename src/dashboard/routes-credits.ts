/**
 * Credits, teams and spend (every call `?orgId=`):
 *   GET  /api/credits                                      -> {balance_usd, held_usd, available_usd}
 *   POST /api/credits/topup {amount_usd >= 5, idempotency_key} -> {balance_usd, held_usd, available_usd}  (Owner only)
 *   GET  /api/teams                                        -> {teams: [{id, name, budget_usd, spend_usd, rpm, tpm, created_at}]}
 *   POST /api/teams {name, budget_usd?, rpm?, tpm?}        -> 201 {team}
 *   GET  /api/spend?by=key|model|tag|day                    -> {by, rows: [{group, cost_usd, requests, input_tokens, output_tokens}]}
 */
import { ok } from './http.js';
import type { DashboardRouter } from './router.js';
import { balanceView, teamView } from './views.js';

export function creditRoutes(r: DashboardRouter): void {
  const s = r.deps.services;

  r.org('GET', '/api/credits', async (ctx) => ok(balanceView(await s.credits.balance(ctx.orgId))));
  // Adding credit without a payment step is a trust decision: only an Owner may do it from the dashboard.
  r.org('POST', '/api/credits/topup', async (ctx) => ok(balanceView((await s.credits.topUp(ctx.orgId, ctx.body)).balance)), ['owner']);

  r.org('GET', '/api/teams', async (ctx) => ok({ teams: (await s.credits.teams(ctx.orgId)).map((t) => teamView(t.team, t.spend)) }));
  r.org('POST', '/api/teams', async (ctx) => ok({ team: teamView(await s.credits.createTeam(ctx.orgId, ctx.body), 0) }, 201));

  r.org('GET', '/api/spend', async (ctx) => {
    const by = ctx.query.get('by') ?? 'key';
    return ok({ by, rows: await s.credits.spend(ctx.orgId, by) });
  });
}
