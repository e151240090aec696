/** Shared shape of outbound senders: the guard they call and the headers every delivery carries. */
import type { GuardedRequestInit, GuardedResult } from './ssrf-guard.js';

/** What senders need from the SSRF guard; `SsrfGuard` implements it. */
export interface OutboundGuard {
  request(url: string, init: GuardedRequestInit): Promise<GuardedResult>;
}

export const DEFAULT_SERVICE_NAME = 'svc';

/** `User-Agent: <service>-Webhook/1.0` (gateway-api.md, Events > Delivery request). */
export function webhookUserAgent(serviceName: string | undefined): string {
  return `${serviceName ?? DEFAULT_SERVICE_NAME}-Webhook/1.0`;
}

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}
