/**
 * The notification channel test (gateway-api.md, Notification channel API > Test): one guarded
 * request, 10 s abort, redirects refused. `ok: false` is what the route renders as 502; `ok: true`
 * is what stamps `verified_at`.
 *
 * Jira: the test is `GET <base_url>/rest/api/2/project/<project_key>` with basic auth. It proves the
 * base URL, the credentials and the project key together without creating an issue in the
 * customer's tracker (an issue per test would be noise; `/myself` would not check the project key).
 */
import { validateChannelConfig, type ChannelType } from './channel-config.js';
import { isRedirect, webhookUserAgent, type OutboundGuard } from './outbound.js';
import { signBody, SIGNATURE_HEADER } from './sign.js';
import type { GuardedRequestInit } from './ssrf-guard.js';

export const CHANNEL_TEST_TIMEOUT_MS = 10_000;

export interface ChannelTestDeps {
  guard: OutboundGuard;
  serviceName?: string;
  /** Defaults to 10000; tests shorten it. */
  timeoutMs?: number;
}

export type ChannelTestFailure =
  | 'invalid_config'
  /** The channel type is not delivered by this module (email); the caller routes it elsewhere. */
  | 'unsupported_channel_type'
  | 'url_refused'
  | 'redirect_refused'
  | 'timeout'
  | 'unreachable'
  | 'destination_rejected';

export type ChannelTestResult =
  | { ok: true; status: number }
  | { ok: false; status: number; reason: ChannelTestFailure; detail?: string };

export interface ChannelUnderTest {
  type: ChannelType;
  config: Record<string, string>;
}

export const TEST_NOTIFICATION = {
  title: 'Test notification',
  message: 'This is a test notification from the gateway. If you can read it, the channel works.',
  severity: 'info',
} as const;

interface Planned {
  url: string;
  init: Omit<GuardedRequestInit, 'timeoutMs'>;
}

function jsonPost(body: unknown, extra: Record<string, string>, serviceName?: string): Planned['init'] & { body: Buffer } {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': webhookUserAgent(serviceName), ...extra },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}

function plan(type: Exclude<ChannelType, 'email'>, config: Record<string, string>, serviceName?: string): Planned {
  const get = (k: string): string => config[k] ?? '';
  switch (type) {
    case 'webhook': {
      const init = jsonPost({ ...TEST_NOTIFICATION, test: true }, {}, serviceName);
      const secret = config.secret;
      // "signed like a webhook when a secret is set": same header, same HMAC over the bytes sent.
      if (secret !== undefined && secret !== '') init.headers = { ...init.headers, [SIGNATURE_HEADER]: signBody(secret, init.body) };
      return { url: get('url'), init };
    }
    case 'slack':
    case 'teams':
      // Both incoming-webhook flavours accept a bare `text` payload.
      return { url: get('webhook_url'), init: jsonPost({ text: `${TEST_NOTIFICATION.title}: ${TEST_NOTIFICATION.message}` }, {}, serviceName) };
    case 'jira': {
      const base = new URL(get('base_url'));
      const path = `${base.pathname.replace(/\/+$/, '')}/rest/api/2/project/${encodeURIComponent(get('project_key'))}`;
      const auth = Buffer.from(`${get('email')}:${get('api_token')}`, 'utf8').toString('base64');
      return {
        url: new URL(path, base).toString(),
        init: { method: 'GET', headers: { accept: 'application/json', authorization: `Basic ${auth}`, 'user-agent': webhookUserAgent(serviceName) } },
      };
    }
  }
}

/** Sends the test for one channel. Never throws. */
export async function sendChannelTest(channel: ChannelUnderTest, deps: ChannelTestDeps): Promise<ChannelTestResult> {
  try {
    if (channel.type === 'email') return { ok: false, status: 0, reason: 'unsupported_channel_type' };
    const valid = validateChannelConfig(channel.type, channel.config);
    if (!valid.ok) return { ok: false, status: 0, reason: 'invalid_config', detail: valid.reason };
    const { url, init } = plan(channel.type, valid.config, deps.serviceName);
    const result = await deps.guard.request(url, { ...init, timeoutMs: deps.timeoutMs ?? CHANNEL_TEST_TIMEOUT_MS });
    switch (result.kind) {
      case 'refused':
        return { ok: false, status: 0, reason: 'url_refused', detail: result.reason };
      case 'timeout':
        return { ok: false, status: 0, reason: 'timeout', detail: result.reason };
      case 'error':
        return { ok: false, status: 0, reason: 'unreachable', detail: result.reason };
      case 'response':
        if (isRedirect(result.status)) return { ok: false, status: result.status, reason: 'redirect_refused' };
        if (result.status < 200 || result.status > 299) return { ok: false, status: result.status, reason: 'destination_rejected' };
        return { ok: true, status: result.status };
    }
  } catch (e) {
    return { ok: false, status: 0, reason: 'unreachable', detail: e instanceof Error ? e.message : String(e) };
  }
}
