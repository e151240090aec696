/**
 * Fire-and-forget delivery of one webhook event (gateway-api.md, Events). One attempt, no retry,
 * queue or replay; the returned status is what the caller writes to `last_status` and `at` to
 * `last_delivery_at`.
 */
import { signBody, SIGNATURE_HEADER } from './sign.js';
import { isRedirect, webhookUserAgent, type OutboundGuard } from './outbound.js';

export const WEBHOOK_EVENTS = ['key.created', 'key.revoked', 'key.rotated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Endpoint requirements 5: any 2xx within 5 seconds. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookEnvelope {
  event: WebhookEvent;
  organization_id: string;
  /** ISO 8601, stamped when the batch is serialised. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface WebhookTarget {
  url: string;
  /** Write-only signing secret; null sends unsigned. */
  secret: string | null;
}

export interface WebhookDeps {
  guard: OutboundGuard;
  /** Service name in the User-Agent; defaults to `svc`. */
  serviceName?: string;
  /** Defaults to 5000; tests shorten it. */
  timeoutMs?: number;
  now?: () => Date;
}

export interface DeliveryResult {
  /** HTTP status, or 0 when the attempt never completed (refused, unreachable, timeout, redirect). */
  status: number;
  /** When the attempt started (ISO 8601). */
  at: string;
  /** Why the status is 0, for logs only; never shown to the subscriber. */
  detail?: string;
}

/** Serialises once, signs those exact bytes, sends them. Never throws. */
export async function deliverWebhook(sub: WebhookTarget, envelope: WebhookEnvelope, deps: WebhookDeps): Promise<DeliveryResult> {
  const at = (deps.now?.() ?? new Date()).toISOString();
  try {
    const body = Buffer.from(JSON.stringify(envelope), 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': webhookUserAgent(deps.serviceName),
    };
    if (sub.secret !== null && sub.secret !== '') headers[SIGNATURE_HEADER] = signBody(sub.secret, body);
    const result = await deps.guard.request(sub.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    });
    if (result.kind !== 'response') return { status: 0, at, detail: `${result.kind}: ${result.reason}` };
    // Endpoint requirements 4: a redirect is not followed and is recorded as 0.
    if (isRedirect(result.status)) return { status: 0, at, detail: `redirect ${result.status} not followed` };
    return { status: result.status, at };
  } catch (e) {
    // Endpoint requirements 7: a dispatch failure never reaches the key action that emitted the event.
    return { status: 0, at, detail: `error: ${e instanceof Error ? e.message : String(e)}` };
  }
}
