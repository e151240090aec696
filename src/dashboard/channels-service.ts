/**
 * Notification channels (gateway-api.md, Notification channel + Notification channel API): stored per
 * organization on the Store kv, secrets redacted on every read, every URL a public HTTPS endpoint (the one
 * SSRF guard), a foreign channel id answered 404, tests limited to 5 per minute per organization.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import { isChannelType, redactChannelConfig, restoreRedacted, validateChannelConfig, type ChannelConfig, type ChannelType } from '../events/channel-config.js';
import { sendChannelTest, TEST_NOTIFICATION, type ChannelTestFailure } from '../events/channel-sender.js';
import type { Store } from '../store/contract.js';
import { KvIndex, serialised } from './kv-index.js';
import type { Mailer } from './smtp-client.js';
import { isObject, objectWith, optName } from './validate.js';
import { checkPublicHttpsUrl, type UrlGuard } from './webhooks-service.js';

export const CHANNEL_TESTS_PER_MINUTE = 5;
export const MAX_CHANNELS_PER_ORG = 50;

const URL_KEYS: Record<ChannelType, readonly string[]> = {
  webhook: ['url'],
  slack: ['webhook_url'],
  teams: ['webhook_url'],
  jira: ['base_url'],
  email: [],
};

interface ChannelRecord {
  id: string;
  organization_id: string;
  type: ChannelType;
  name: string | null;
  config: ChannelConfig;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ChannelView = ChannelRecord;

export interface ChannelDeps {
  store: Store;
  guard: UrlGuard;
  mailer: Mailer | null;
  serviceName: string;
  testTimeoutMs: number;
  now: () => number;
}

const recordKey = (orgId: string, id: string): string => `channel:${orgId}:${id}`;
const view = (r: ChannelRecord): ChannelView => ({ ...r, config: redactChannelConfig(r.type, r.config) });
const notFound = (): GatewayError => new GatewayError('not_found', { message: 'Notification channel not found in this organization' });

/** What a failed test says to the caller: the class of failure, never a resolved address or a response body. */
const FAILURE_TEXT: Record<ChannelTestFailure, string> = {
  invalid_config: 'the stored configuration is not valid',
  unsupported_channel_type: 'this channel type cannot be tested',
  url_refused: 'the destination is not a public HTTPS endpoint',
  redirect_refused: 'the destination answered with a redirect, which is not followed',
  timeout: 'the destination did not answer in time',
  unreachable: 'the destination is unreachable',
  destination_rejected: 'the destination rejected the test',
};

export class ChannelsService {
  readonly #index: KvIndex;

  constructor(private readonly deps: ChannelDeps) {
    this.#index = new KvIndex(deps.store, 'channels');
  }

  async #validConfig(type: ChannelType, config: unknown): Promise<ChannelConfig> {
    const checked = validateChannelConfig(type, config);
    if (!checked.ok) throw invalid(checked.reason, checked.param);
    for (const k of URL_KEYS[type]) {
      const v = checked.config[k];
      if (v !== undefined) await checkPublicHttpsUrl(this.deps.guard, v, `config.${k}`);
    }
    return checked.config;
  }

  async #get(orgId: string, id: string): Promise<ChannelRecord> {
    const rec = await this.deps.store.kvGet<ChannelRecord>(recordKey(orgId, id));
    if (rec === null || rec.organization_id !== orgId) throw notFound();
    return rec;
  }

  async list(orgId: string): Promise<ChannelView[]> {
    const ids = await this.#index.list(orgId);
    const recs = await Promise.all(ids.map((id) => this.deps.store.kvGet<ChannelRecord>(recordKey(orgId, id))));
    return recs.filter((r): r is ChannelRecord => r !== null).map(view);
  }

  async create(orgId: string, body: unknown): Promise<ChannelView> {
    const o = objectWith(body, ['type', 'name', 'config']);
    if (!isChannelType(o.type)) throw invalid('type must be one of email, slack, teams, jira, webhook', 'type');
    const name = optName(o, 'name', { max: 200 });
    const config = await this.#validConfig(o.type, o.config);
    if ((await this.#index.list(orgId)).length >= MAX_CHANNELS_PER_ORG) {
      throw new GatewayError('conflict', { message: `An organization may have at most ${MAX_CHANNELS_PER_ORG} notification channels.` });
    }
    const at = new Date(this.deps.now()).toISOString();
    const rec: ChannelRecord = { id: randomUUID(), organization_id: orgId, type: o.type, name, config, verified_at: null, created_at: at, updated_at: at };
    await this.deps.store.kvSet(recordKey(orgId, rec.id), rec);
    await this.#index.add(orgId, rec.id);
    return view(rec);
  }

  /**
   * PATCH: `name` and/or a whole new `config` (secret keys sent back in their redacted form keep the stored
   * value). The type cannot change. A changed config clears `verified_at` until the next successful test.
   */
  async update(orgId: string, id: string, body: unknown): Promise<ChannelView> {
    const o = objectWith(body, ['type', 'name', 'config']);
    return serialised(recordKey(orgId, id), async () => {
      const rec = await this.#get(orgId, id);
      if (o.type !== undefined && o.type !== rec.type) throw invalid('type cannot be changed; create a new channel', 'type');
      const next: ChannelRecord = { ...rec, updated_at: new Date(this.deps.now()).toISOString() };
      if (o.name !== undefined) next.name = optName(o, 'name', { max: 200 });
      if (o.config !== undefined) {
        const incoming = isObject(o.config) ? restoreRedacted(rec.type, rec.config, o.config) : o.config;
        next.config = await this.#validConfig(rec.type, incoming);
        if (JSON.stringify(next.config) !== JSON.stringify(rec.config)) next.verified_at = null;
      }
      await this.deps.store.kvSet(recordKey(orgId, id), next);
      return view(next);
    });
  }

  async remove(orgId: string, id: string): Promise<void> {
    await serialised(recordKey(orgId, id), async () => {
      await this.#get(orgId, id);
      await this.deps.store.kvDel(recordKey(orgId, id));
    });
    await this.#index.remove(orgId, id);
  }

  /** Sends the test; 429 past 5 per minute per organization, 502 when the destination fails; stamps `verified_at`. */
  async test(orgId: string, id: string): Promise<ChannelView> {
    const rec = await this.#get(orgId, id);
    const count = await this.deps.store.hit(`channel-test:${orgId}`, 60_000);
    if (count > CHANNEL_TESTS_PER_MINUTE) {
      throw new GatewayError('rate_limit_exceeded', { message: `At most ${CHANNEL_TESTS_PER_MINUTE} channel tests per minute per organization.` });
    }
    const failure = rec.type === 'email' ? await this.#testEmail(rec) : await this.#testHttp(rec);
    if (failure !== null) throw new GatewayError('channel_test_failed', { message: `Channel test failed: ${failure}.` });
    return serialised(recordKey(orgId, id), async () => {
      const current = await this.#get(orgId, id);
      // A config changed while the test ran was not the one tested.
      if (JSON.stringify(current.config) !== JSON.stringify(rec.config)) return view(current);
      const stamped = { ...current, verified_at: new Date(this.deps.now()).toISOString() };
      await this.deps.store.kvSet(recordKey(orgId, id), stamped);
      return view(stamped);
    });
  }

  async #testHttp(rec: ChannelRecord): Promise<string | null> {
    const r = await sendChannelTest(
      { type: rec.type, config: rec.config },
      { guard: this.deps.guard, serviceName: this.deps.serviceName, timeoutMs: this.deps.testTimeoutMs },
    );
    if (r.ok) return null;
    return r.reason === 'destination_rejected' ? `${FAILURE_TEXT[r.reason]} (HTTP ${r.status})` : FAILURE_TEXT[r.reason];
  }

  async #testEmail(rec: ChannelRecord): Promise<string | null> {
    if (this.deps.mailer === null) return 'no SMTP server is configured';
    const to = (rec.config.recipients ?? '').split(',').filter((s) => s !== '');
    try {
      await this.deps.mailer.send({ to, subject: `[${this.deps.serviceName}] ${TEST_NOTIFICATION.title}`, text: `${TEST_NOTIFICATION.message}\n` });
      return null;
    } catch {
      return 'the mail server refused the test message';
    }
  }
}
