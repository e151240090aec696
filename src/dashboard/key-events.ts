/**
 * Key lifecycle events to webhook subscriptions (gateway-api.md, Events). `emit` returns at once: the
 * key action that emitted never waits for, and is never failed by, a delivery (Endpoint requirements 6-7).
 * One attempt per matching subscription; the result goes to `last_status` / `last_delivery_at` only.
 */
import type { OutboundGuard } from '../events/outbound.js';
import { deliverWebhook, type WebhookEvent } from '../events/webhook-sender.js';
import { keyAlias } from '../keys/mint.js';
import type { Logger } from '../obs/logger.js';
import type { KeyRecord } from '../store/contract.js';
import type { WebhooksService } from './webhooks-service.js';

/** Deliveries in flight at once per process (a bulk action of 500 rows must not open 500 sockets). */
const MAX_PARALLEL = 8;

export interface KeyEventDeps {
  webhooks: WebhooksService;
  guard: OutboundGuard;
  serviceName: string;
  timeoutMs: number;
  log: Logger;
  now: () => number;
}

/** `key.created` data: `bulk_import: true` only on bulk import rows. */
export function createdData(key: KeyRecord, actor: string | null, bulkImport: boolean): Record<string, unknown> {
  const data: Record<string, unknown> = {
    key_name: keyAlias(key),
    key_alias: keyAlias(key),
    // null allowedModels means every model; the event carries [] for "not restricted".
    models: key.allowedModels ?? [],
    actor_user_id: actor,
  };
  if (bulkImport) data.bulk_import = true;
  return data;
}

/** `key.revoked` data: `bulk: true` only on a bulk revoke. */
export function revokedData(key: KeyRecord, actor: string | null, bulk: boolean): Record<string, unknown> {
  const data: Record<string, unknown> = { key_name: keyAlias(key), key_alias: keyAlias(key), actor_user_id: actor };
  if (bulk) data.bulk = true;
  return data;
}

export function rotatedData(
  oldKey: KeyRecord,
  newKey: KeyRecord,
  oldExpiresAt: number | null,
  graceHours: number,
  actor: string | null,
): Record<string, unknown> {
  return {
    old_key_name: keyAlias(oldKey),
    new_key_name: keyAlias(newKey),
    old_key_expires_at: oldExpiresAt === null ? null : new Date(oldExpiresAt).toISOString(),
    grace_hours: graceHours,
    actor_user_id: actor,
  };
}

export class KeyEventEmitter {
  readonly #inflight = new Set<Promise<void>>();
  readonly #waiting: (() => void)[] = [];
  #active = 0;

  constructor(private readonly deps: KeyEventDeps) {}

  /** Fire-and-forget. Never throws. */
  emit(orgId: string, event: WebhookEvent, data: Record<string, unknown>): void {
    const timestamp = new Date(this.deps.now()).toISOString();
    const task = this.#dispatch(orgId, event, timestamp, data).catch((e: unknown) => {
      this.deps.log.warn('webhook dispatch failed', { org_id: orgId, event, error: e instanceof Error ? e.message : String(e) });
    });
    this.#inflight.add(task);
    void task.finally(() => this.#inflight.delete(task));
  }

  /** Resolves when every delivery started so far has been recorded (tests, CLI exit, shutdown). */
  async idle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
  }

  async #dispatch(orgId: string, event: WebhookEvent, timestamp: string, data: Record<string, unknown>): Promise<void> {
    const targets = await this.deps.webhooks.targets(orgId, event);
    await Promise.all(
      targets.map(async (t) => {
        await this.#slot();
        try {
          const result = await deliverWebhook(
            { url: t.url, secret: t.secret },
            { event, organization_id: orgId, timestamp, data },
            { guard: this.deps.guard, serviceName: this.deps.serviceName, timeoutMs: this.deps.timeoutMs },
          );
          if (result.detail !== undefined) {
            this.deps.log.info('webhook delivery not completed', { org_id: orgId, webhook_id: t.id, event, detail: result.detail });
          }
          await this.deps.webhooks.recordDelivery(orgId, t.id, result);
        } finally {
          this.#release();
        }
      }),
    );
  }

  #slot(): Promise<void> {
    if (this.#active < MAX_PARALLEL) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }
}
