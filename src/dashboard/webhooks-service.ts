/**
 * Webhook subscriptions (gateway-api.md, Webhook subscription + Webhook subscription API). Records live on
 * the Store kv as `webhook:<orgId>:<id>` with an id list per organization; the signing secret is stored
 * (it keys the HMAC) but never leaves this module in a view.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { OutboundGuard } from '../events/outbound.js';
import { checkUrlSyntax, MAX_URL_LENGTH, type SsrfGuard } from '../events/ssrf-guard.js';
import { WEBHOOK_EVENTS, type DeliveryResult, type WebhookEvent } from '../events/webhook-sender.js';
import type { Store } from '../store/contract.js';
import { KvIndex, serialised } from './kv-index.js';
import { objectWith } from './validate.js';

/** Limits: webhook registration rate, 5 per minute per user. */
export const REGISTRATIONS_PER_MINUTE = 5;
const SECRET_MIN = 8;
const SECRET_MAX = 128;
/** Not in the contract; bounds the fan-out of one key action. */
export const MAX_WEBHOOKS_PER_ORG = 50;

export interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  last_delivery_at: string | null;
  last_status: number | null;
  created_at: string;
}

interface WebhookRecord extends WebhookRow {
  secret: string | null;
  created_by: string;
}

export interface DeliveryTarget {
  id: string;
  url: string;
  secret: string | null;
}

const recordKey = (orgId: string, id: string): string => `webhook:${orgId}:${id}`;

function row(r: WebhookRecord): WebhookRow {
  const { id, organization_id, url, events, enabled, last_delivery_at, last_status, created_at } = r;
  return { id, organization_id, url, events, enabled, last_delivery_at, last_status, created_at };
}

export type UrlGuard = Pick<SsrfGuard, 'resolveAndCheck'> & OutboundGuard;

/**
 * Registration-time URL rule: https, at most 2048 characters, no credentials, no private name or address
 * literal (the allow-list-free syntax check), and every DNS answer public now through the guard's
 * resolver. The guard checks all of it again at every send.
 */
const REGISTRATION_DNS_TIMEOUT_MS = 5_000;

export async function checkPublicHttpsUrl(guard: UrlGuard, url: unknown, param: string): Promise<string> {
  if (typeof url !== 'string') throw invalid(`${param} must be a string`, param);
  if (url.length > MAX_URL_LENGTH) throw invalid(`${param} must be at most ${MAX_URL_LENGTH} characters`, param);
  if (!url.startsWith('https://')) throw invalid(`${param} must start with https://`, param);
  const syntax = checkUrlSyntax(url);
  if (!syntax.ok) throw invalid(`${param} refused: ${syntax.reason}`, param);
  // A slow resolver must not hold the request (or the libuv threads) indefinitely.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('dns lookup timed out')), REGISTRATION_DNS_TIMEOUT_MS);
  let resolved;
  try {
    resolved = await guard.resolveAndCheck(syntax.url, deadline.signal);
  } catch {
    throw invalid(`${param} refused: its host could not be resolved within ${REGISTRATION_DNS_TIMEOUT_MS} ms`, param);
  } finally {
    clearTimeout(timer);
  }
  if (!resolved.ok) throw invalid(`${param} refused: ${resolved.reason}`, param);
  return url;
}

function parseEvents(v: unknown): WebhookEvent[] {
  if (!Array.isArray(v) || v.length === 0) throw invalid(`events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`, 'events');
  const out: WebhookEvent[] = [];
  for (const e of v) {
    if (typeof e !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
      throw invalid(`Unknown event ${typeof e === 'string' ? e : JSON.stringify(e)}; allowed: ${WEBHOOK_EVENTS.join(', ')}`, 'events');
    }
    if (!out.includes(e as WebhookEvent)) out.push(e as WebhookEvent);
  }
  return out;
}

export class WebhooksService {
  readonly #index: KvIndex;

  constructor(
    private readonly store: Store,
    private readonly guard: UrlGuard,
    private readonly now: () => number,
  ) {
    this.#index = new KvIndex(store, 'webhooks');
  }

  /** POST: counts the attempt against the user's per-minute limit first, then validates and stores. */
  async register(orgId: string, userId: string, body: unknown): Promise<WebhookRow> {
    const count = await this.store.hit(`webhook-reg:${userId}`, 60_000);
    if (count > REGISTRATIONS_PER_MINUTE) {
      throw new GatewayError('rate_limit_exceeded', {
        message: `At most ${REGISTRATIONS_PER_MINUTE} webhook registrations per minute per user.`,
        // The Store's windows are aligned on wall-clock minutes.
        headers: { 'retry-after': String(60 - Math.floor((Date.now() % 60_000) / 1000)) },
      });
    }
    const o = objectWith(body, ['url', 'events', 'secret']);
    const events = parseEvents(o.events);
    let secret: string | null = null;
    if (o.secret !== undefined) {
      if (typeof o.secret !== 'string' || o.secret.length < SECRET_MIN || o.secret.length > SECRET_MAX) {
        throw invalid(`secret must be ${SECRET_MIN} to ${SECRET_MAX} characters`, 'secret');
      }
      secret = o.secret;
    }
    const url = await checkPublicHttpsUrl(this.guard, o.url, 'url');
    if ((await this.#index.list(orgId)).length >= MAX_WEBHOOKS_PER_ORG) {
      throw new GatewayError('conflict', { message: `An organization may have at most ${MAX_WEBHOOKS_PER_ORG} webhooks.` });
    }
    const rec: WebhookRecord = {
      id: randomUUID(),
      organization_id: orgId,
      url,
      events,
      enabled: true,
      last_delivery_at: null,
      last_status: null,
      created_at: new Date(this.now()).toISOString(),
      secret,
      created_by: userId,
    };
    await this.store.kvSet(recordKey(orgId, rec.id), rec);
    await this.#index.add(orgId, rec.id);
    return row(rec);
  }

  async #records(orgId: string): Promise<WebhookRecord[]> {
    const ids = await this.#index.list(orgId);
    const recs = await Promise.all(ids.map((id) => this.store.kvGet<WebhookRecord>(recordKey(orgId, id))));
    return recs.filter((r): r is WebhookRecord => r !== null);
  }

  async list(orgId: string): Promise<WebhookRow[]> {
    return (await this.#records(orgId)).map(row);
  }

  async remove(orgId: string, id: string): Promise<void> {
    const key = recordKey(orgId, id);
    await serialised(key, async () => {
      const rec = await this.store.kvGet<WebhookRecord>(key);
      if (rec === null || rec.organization_id !== orgId) {
        throw new GatewayError('not_found', { message: 'Webhook not found in this organization' });
      }
      await this.store.kvDel(key);
    });
    await this.#index.remove(orgId, id);
  }

  /** Enabled subscriptions of the organization whose `events` contain `event`. */
  async targets(orgId: string, event: WebhookEvent): Promise<DeliveryTarget[]> {
    return (await this.#records(orgId))
      .filter((r) => r.enabled && r.events.includes(event))
      .map((r) => ({ id: r.id, url: r.url, secret: r.secret }));
  }

  /** Writes `last_status` / `last_delivery_at`, unless a later attempt already did or the row is gone. */
  async recordDelivery(orgId: string, id: string, result: DeliveryResult): Promise<void> {
    const key = recordKey(orgId, id);
    await serialised(key, async () => {
      const rec = await this.store.kvGet<WebhookRecord>(key);
      if (rec === null) return;
      if (rec.last_delivery_at !== null && rec.last_delivery_at > result.at) return;
      await this.store.kvSet(key, { ...rec, last_status: result.status, last_delivery_at: result.at });
    });
  }
}
