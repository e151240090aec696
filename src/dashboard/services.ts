/**
 * The dashboard's service layer, built once and shared by the HTTP API and the operator CLI so both run
 * the same code paths (issue 5, item 6).
 */
import { sealedKv, type SecretBox } from '../events/secret-box.js';
import { SsrfGuard } from '../events/ssrf-guard.js';
import { WEBHOOK_TIMEOUT_MS } from '../events/webhook-sender.js';
import { CHANNEL_TEST_TIMEOUT_MS } from '../events/channel-sender.js';
import { Logger } from '../obs/logger.js';
import type { Store } from '../store/contract.js';
import { invalidationBus } from '../store/index.js';
import { CacheInvalidator } from './cache-invalidation.js';
import { ChannelsService } from './channels-service.js';
import { DEFAULT_NOTICES, DEFAULT_SESSION_TTL_MS, type NoticeOptions } from './config.js';
import { CreditsService } from './credits-service.js';
import { KeyEventEmitter } from './key-events.js';
import { InvitationsService } from './invitations-service.js';
import { KeysService } from './keys-service.js';
import { BudgetNotifier } from './notices.js';
import { OrgsService } from './orgs-service.js';
import { Sessions } from './sessions.js';
import { SmtpMailer, type Mailer, type SmtpConfig } from './smtp-client.js';
import { UsersService } from './users-service.js';
import { WebhooksService, type UrlGuard } from './webhooks-service.js';

export interface ServiceOptions {
  serviceName?: string;
  /** The dashboard's origin: invitation links point at it. */
  origin?: string;
  /** Fallback chain given to new organizations (config `defaultFallbacks`). */
  defaultFallbacks?: readonly string[];
  /** The one SSRF guard for every outbound URL; defaults to system DNS and the default CA store. */
  guard?: UrlGuard;
  logger?: Logger;
  now?: () => number;
  sessionTtlMs?: number;
  webhookTimeoutMs?: number;
  channelTestTimeoutMs?: number;
  smtp?: SmtpConfig | null;
  /** Overrides `smtp` (tests inject a recording mailer). */
  mailer?: Mailer | null;
  notices?: Partial<NoticeOptions>;
  /** Seals webhook and channel records (their secrets) at rest; null stores them as they are. */
  secretBox?: SecretBox | null;
}

export interface Services {
  store: Store;
  now: () => number;
  log: Logger;
  users: UsersService;
  invitations: InvitationsService;
  sessions: Sessions;
  orgs: OrgsService;
  keys: KeysService;
  credits: CreditsService;
  webhooks: WebhooksService;
  channels: ChannelsService;
  events: KeyEventEmitter;
  notices: BudgetNotifier;
  /** Key-cache invalidation on every gateway node (keys, teams, organizations). */
  invalidate: CacheInvalidator;
}

export function createServices(store: Store, opts: ServiceOptions = {}): Services {
  const now = opts.now ?? Date.now;
  const log = opts.logger ?? new Logger('info', true);
  const serviceName = opts.serviceName ?? 'svc';
  const guard = opts.guard ?? new SsrfGuard();
  const mailer = opts.mailer !== undefined ? opts.mailer : opts.smtp ? new SmtpMailer(opts.smtp) : null;
  const users = new UsersService(store, now);
  // Webhook and channel records hold secrets the gateway must read back to sign: sealed at rest.
  const secretStore = opts.secretBox ? sealedKv(store, opts.secretBox) : store;
  const webhooks = new WebhooksService(secretStore, guard, now);
  const events = new KeyEventEmitter({ webhooks, guard, serviceName, timeoutMs: opts.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS, log, now });
  const invalidate = new CacheInvalidator(invalidationBus(store), log);
  const notices = new BudgetNotifier({ store, users, mailer, options: { ...DEFAULT_NOTICES, ...opts.notices }, log, serviceName });
  return {
    store,
    now,
    log,
    users,
    invitations: new InvitationsService({ store, users, mailer, origin: opts.origin ?? 'http://localhost', serviceName, now }),
    sessions: new Sessions(store, opts.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS, now),
    orgs: new OrgsService(store, users, now, opts.defaultFallbacks ?? [], invalidate),
    keys: new KeysService(store, events, now, invalidate),
    credits: new CreditsService(store, notices, now),
    webhooks,
    channels: new ChannelsService({
      store: secretStore,
      guard,
      mailer,
      serviceName,
      testTimeoutMs: opts.channelTestTimeoutMs ?? CHANNEL_TEST_TIMEOUT_MS,
      now,
    }),
    events,
    notices,
    invalidate,
  };
}
