/**
 * The dashboard API listener (`{dashboard_url}`, its own port): sessions and roles, organizations, keys,
 * credits and spend, webhooks, notification channels. Wiring only; the rules live in the modules it loads.
 */
import type { GatewayConfig } from '../config/schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../obs/logger.js';
import { startServer } from '../server/app.js';
import type { Store } from '../store/contract.js';
import type { DashboardOptions } from './config.js';
import { DashboardRouter } from './router.js';
import { authRoutes } from './routes-auth.js';
import { creditRoutes } from './routes-credits.js';
import { eventRoutes } from './routes-events.js';
import { invitationRoutes } from './routes-invitations.js';
import { keyRoutes } from './routes-keys.js';
import { createServices, type Services } from './services.js';
import type { Mailer } from './smtp-client.js';
import type { UrlGuard } from './webhooks-service.js';
import type { SecretBox } from '../events/secret-box.js';

export interface DashboardDeps {
  /** Seals webhook and channel secrets at rest (see secrets-key.ts). */
  secretBox?: SecretBox | null;
  config: Pick<GatewayConfig, 'serviceName' | 'maxBodyBytes' | 'defaultFallbacks'>;
  store: Store;
  /** The SSRF guard for every outbound URL; tests pass one with their CA and resolver. */
  guard?: UrlGuard;
  logger?: Logger;
  now?: () => number;
  /** Overrides opts.smtp (tests). */
  mailer?: Mailer | null;
}

export interface Dashboard {
  port: number;
  /** Shared with the CLI and the settlement side (`services.notices.afterSettlement`). */
  services: Services;
  close(): Promise<void>;
}

export type { DashboardOptions } from './config.js';
export { dashboardOptionsFromEnv } from './config.js';

export async function startDashboard(deps: DashboardDeps, opts: DashboardOptions): Promise<Dashboard> {
  const services = createServices(deps.store, {
    secretBox: deps.secretBox ?? null,
    serviceName: deps.config.serviceName,
    origin: opts.origin,
    defaultFallbacks: deps.config.defaultFallbacks,
    ...(deps.guard === undefined ? {} : { guard: deps.guard }),
    ...(deps.logger === undefined ? {} : { logger: deps.logger }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
    ...(deps.mailer === undefined ? {} : { mailer: deps.mailer }),
    ...(opts.sessionTtlMs === undefined ? {} : { sessionTtlMs: opts.sessionTtlMs }),
    ...(opts.webhookTimeoutMs === undefined ? {} : { webhookTimeoutMs: opts.webhookTimeoutMs }),
    ...(opts.channelTestTimeoutMs === undefined ? {} : { channelTestTimeoutMs: opts.channelTestTimeoutMs }),
    smtp: opts.smtp ?? null,
    ...(opts.notices === undefined ? {} : { notices: opts.notices }),
  });
  if (opts.bootstrap) {
    const b = await services.orgs.bootstrap(opts.bootstrap);
    if (b.created) services.log.info('bootstrapped first Owner and organization', { org_id: b.org.id, user_id: b.user.id });
  }
  const router = new DashboardRouter({ services, origin: opts.origin, secureCookies: opts.secureCookies });
  authRoutes(router);
  invitationRoutes(router);
  keyRoutes(router);
  creditRoutes(router);
  eventRoutes(router);
  const server = await startServer({
    host: opts.host,
    port: opts.port,
    maxBodyBytes: opts.maxBodyBytes ?? deps.config.maxBodyBytes,
    routes: router.routes,
    errorHeaders: () => ({ 'cache-control': 'no-store' }),
    onHandlerError: (err, _req, res) => {
      services.log.error('dashboard handler failed', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      res.send(500, { 'content-type': 'application/json' }, JSON.stringify(new GatewayError('internal_error').toBody()));
    },
  });
  return {
    port: server.port,
    services,
    async close() {
      server.close();
      await services.events.idle();
    },
  };
}
