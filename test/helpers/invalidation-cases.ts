/**
 * Key-cache invalidation through HTTP: two gateway instances with a long key cache (60 s, so nothing below
 * can pass by expiry), the dashboard and the operator CLI on their own store handle. A change made on the
 * dashboard or the CLI is honoured by the *other* instances on the very next request.
 */
import { request } from 'undici';
import { expect } from 'vitest';
import { runAdminCli } from '../../src/dashboard/cli-commands.js';
import type { Dashboard } from '../../src/dashboard/index.js';
import type { Store } from '../../src/store/contract.js';
import type { TestGateway } from './gateway.js';

export const ORIGIN = 'https://dash.test';
export const LONG_KEY_CACHE_TTL_MS = 60_000;

export interface Outcome {
  status: number;
  code: string | undefined;
  reason: string | undefined;
  retryAfter: string | undefined;
}

export async function chat(gw: TestGateway, key: string): Promise<Outcome> {
  const res = await request(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
  });
  const text = await res.body.text();
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    code = typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    code = undefined;
  }
  const h = (n: string): string | undefined => {
    const v = res.headers[n];
    return typeof v === 'string' ? v : undefined;
  };
  return { status: res.statusCode, code, reason: h('x-svc-auth-reason'), retryAfter: h('retry-after') };
}

const served = { status: 200, code: undefined, reason: undefined, retryAfter: undefined };

export interface Setup {
  /** Gateways whose key caches must follow the changes (none of them made the change). */
  gateways: TestGateway[];
  dash: Dashboard;
  /** The store handle the operator CLI uses (its own connection on Redis). */
  cliStore: Store;
  orgId: string;
  /**
   * Waits after a change before the next request. Unset (no wait) on one Redis server and on the embedded
   * store. On Redis Cluster a PUBLISH answers before the other nodes have relayed it over the cluster bus,
   * so there the change is checked after a short wait (far below the 60 s key-cache TTL).
   */
  propagation?: () => Promise<void>;
}

async function owner(s: Setup, email: string): Promise<{ cookie: string; base: string }> {
  const svc = s.dash.services;
  const u = await svc.users.createUser(email, 'long enough password');
  await svc.users.setRole(s.orgId, u.id, 'owner');
  return { cookie: `svc_session=${(await svc.sessions.create(u.id)).id}`, base: `http://127.0.0.1:${s.dash.port}` };
}

async function createKey(s: Setup, who: { cookie: string; base: string }, body: Record<string, unknown>): Promise<{ id: string; value: string }> {
  const res = await request(`${who.base}/api/keys?orgId=${s.orgId}`, {
    method: 'POST',
    headers: { cookie: who.cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.statusCode).toBe(201);
  const { key, value } = (await res.body.json()) as { key: { id: string }; value: string };
  return { id: key.id, value };
}

/** The org's balance once every served request is settled (nothing held, nothing queued on any instance). */
async function settledBalance(s: Setup): Promise<number> {
  const end = Date.now() + 5_000;
  for (;;) {
    await Promise.all(s.gateways.map((g) => g.gw.deps.settlement.flush()));
    const view = await s.cliStore.getBalance(s.orgId);
    if (view.held === 0 && s.gateways.every((g) => g.gw.deps.settlement.pending === 0)) return view.balance;
    if (Date.now() > end) throw new Error('requests did not settle');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const upstreamCalls = (gws: TestGateway[]): number => gws.reduce((n, g) => n + g.sim.stats().requests, 0);

/** Lowering a key's RPM on the dashboard: the other instances refuse (429) on the very next request. */
export async function lowerRpmBitesAtOnce(s: Setup, email: string): Promise<void> {
  const who = await owner(s, email);
  const k = await createKey(s, who, { name: 'rpm-lowered', rpm: 100 });
  // Two requests on every instance: each caches the record with rpm 100; the key's window now holds 2n.
  for (const gw of s.gateways) {
    expect(await chat(gw, k.value)).toEqual(served);
    expect(await chat(gw, k.value)).toEqual(served);
  }
  const patched = await request(`${who.base}/api/keys/${k.id}?orgId=${s.orgId}`, {
    method: 'PATCH',
    headers: { cookie: who.cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ rpm: 2 }),
  });
  expect(patched.statusCode).toBe(200);
  await patched.body.text();
  await s.propagation?.();
  const balance = await settledBalance(s);
  const calls = upstreamCalls(s.gateways);
  for (const gw of s.gateways) {
    const r = await chat(gw, k.value);
    expect(r.status).toBe(429);
    expect(r.code).toBe('rate_limit_exceeded');
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
  }
  expect(upstreamCalls(s.gateways)).toBe(calls);
  expect(await settledBalance(s)).toBe(balance);
}

/**
 * Suspending the organization with the operator CLI: every key of it is refused (401 key_blocked) by every
 * instance on the very next request; resuming it serves them again at once. Control: the same change written
 * straight to the store (no invalidation published) is NOT seen by a warm cache, so the cache really is long.
 */
export async function orgSuspensionBitesAtOnce(s: Setup, email: string): Promise<void> {
  const who = await owner(s, email);
  const k = await createKey(s, who, { name: 'org-suspended' });
  for (const gw of s.gateways) expect(await chat(gw, k.value)).toEqual(served);

  // Control: without an invalidation the warm caches keep serving the suspended org.
  await s.cliStore.updateOrg(s.orgId, { status: 'suspended' });
  for (const gw of s.gateways) expect(await chat(gw, k.value)).toEqual(served);
  await s.cliStore.updateOrg(s.orgId, { status: 'active' });

  const out: string[] = [];
  expect(await runAdminCli(['org', 'suspend', '--org', s.orgId], s.cliStore, (l) => out.push(l))).toBe(0);
  expect(out).toEqual([`org ${s.orgId} suspended`]);
  await s.propagation?.();
  const balance = await settledBalance(s);
  const calls = upstreamCalls(s.gateways);
  for (const gw of s.gateways) {
    const r = await chat(gw, k.value);
    expect(r.status).toBe(401);
    expect(r.code).toBe('invalid_api_key');
    expect(r.reason).toBe('key_blocked');
  }
  expect(upstreamCalls(s.gateways)).toBe(calls);
  expect(await settledBalance(s)).toBe(balance);

  expect(await runAdminCli(['org', 'resume', '--org', s.orgId], s.cliStore, () => undefined)).toBe(0);
  await s.propagation?.();
  for (const gw of s.gateways) expect(await chat(gw, k.value)).toEqual(served);
}
