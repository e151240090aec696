/**
 * The revocation cases shared by the embedded-store and the Redis tests: after the dashboard's revoke call
 * returns, the very next request on every gateway route is refused 401 with x-svc-auth-reason, while a
 * stream that was already in flight completes.
 */
import { request } from 'undici';
import { expect } from 'vitest';

export interface Outcome {
  status: number;
  reason: string | undefined;
  code: string | undefined;
}

async function call(url: string, method: 'GET' | 'POST', key: string, body?: unknown): Promise<Outcome> {
  const res = await request(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  const reason = res.headers['x-svc-auth-reason'];
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.statusCode, reason: typeof reason === 'string' ? reason : undefined, code };
}

/**
 * Every gateway route a key can call, with a body that would succeed. The unmetered routes go first: an
 * inference refusal drops the key from the cache, which would hide a route that skips the status check.
 */
export function routes(gwUrl: string): [string, (key: string) => Promise<Outcome>][] {
  return [
    ['count_tokens', (k) => call(`${gwUrl}/v1/messages/count_tokens`, 'POST', k, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })],
    ['models', (k) => call(`${gwUrl}/v1/models`, 'GET', k)],
    ['model detail', (k) => call(`${gwUrl}/v1/models/gpt-4o-mini`, 'GET', k)],
    ['chat', (k) => call(`${gwUrl}/v1/chat/completions`, 'POST', k, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })],
    ['messages', (k) => call(`${gwUrl}/v1/messages`, 'POST', k, { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })],
  ];
}

export async function expectAllServed(gwUrl: string, key: string): Promise<void> {
  for (const [name, send] of routes(gwUrl)) expect((await send(key)).status, name).toBe(200);
}

export async function expectAllRevoked(gwUrl: string, key: string): Promise<void> {
  // Whatever the body says: a malformed body or an unknown model is still a revoked key first.
  const wrong: [string, (key: string) => Promise<Outcome>][] = [
    ['chat, unknown model', (k) => call(`${gwUrl}/v1/chat/completions`, 'POST', k, { model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })],
    ['chat, malformed body', (k) => call(`${gwUrl}/v1/chat/completions`, 'POST', k, { model: 'gpt-4o-mini' })],
  ];
  for (const [name, send] of [...wrong, ...routes(gwUrl)]) {
    expect(await send(key), name).toEqual({ status: 401, reason: 'key_blocked', code: 'invalid_api_key' });
  }
}

/** Creates a key through the dashboard API; returns its id, value and a revoke function (resolves when the DELETE returned). */
export async function dashboardKey(dashUrl: string, orgId: string, cookie: string, origin: string): Promise<{ id: string; value: string; revoke: () => Promise<void> }> {
  const created = await request(`${dashUrl}/api/keys?orgId=${orgId}`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'revocation' }),
  });
  expect(created.statusCode).toBe(201);
  const { key, value } = (await created.body.json()) as { key: { id: string }; value: string };
  return {
    id: key.id,
    value,
    revoke: async () => {
      const res = await request(`${dashUrl}/api/keys/${key.id}?orgId=${orgId}`, { method: 'DELETE', headers: { cookie, origin } });
      await res.body.text();
      expect(res.statusCode).toBe(200);
    },
  };
}
