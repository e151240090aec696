/**
 * A real dashboard listener on a memory store, an SSRF guard that trusts only the test CA and sends the
 * receiver's name to 127.0.0.1, a movable clock, and helpers for orgs, users and requests.
 */
import { request } from 'undici';
import { randomBytes } from 'node:crypto';
import { sealedKv, SecretBox } from '../../../src/events/secret-box.js';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import type { Mailer } from '../../../src/dashboard/smtp-client.js';
import type { SmtpConfig } from '../../../src/dashboard/smtp-client.js';
import type { Role } from '../../../src/dashboard/users-service.js';
import { SsrfGuard, type Resolver } from '../../../src/events/ssrf-guard.js';
import { Logger } from '../../../src/obs/logger.js';
import { createStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/contract.js';

export const ORIGIN = 'https://dash.test';
export const PASSWORD = 'correct horse battery';
/** Names the test resolver maps to private addresses (public at no time). */
export const PRIVATE_NAME = 'intranet.test.example';

export interface Clock {
  now: number;
}

export interface Harness {
  dash: Dashboard;
  store: Store;
  /** The store as the webhook/channel services see it (records sealed at rest, opened on read). */
  sealedStore: Store;
  clock: Clock;
  base: string;
  /** A fresh organization with one signed-in user per requested role. */
  org(roles?: Role[]): Promise<TestOrg>;
  /** One more signed-in user with `role` in `orgId`. */
  addUser(orgId: string, role: Role): Promise<TestUser>;
  call(method: string, path: string, opts?: CallOpts): Promise<CallResult>;
  close(): Promise<void>;
}

export interface TestUser {
  id: string;
  email: string;
  cookie: string;
}

export interface TestOrg {
  id: string;
  users: Record<Role, TestUser | undefined>;
  /** Cookie of the org's first user (the Owner unless roles say otherwise). */
  cookie: string;
}

export interface CallOpts {
  cookie?: string;
  body?: unknown;
  /** Overrides; `null` removes a default header (origin, content-type). */
  headers?: Record<string, string | null>;
  raw?: string;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
  text: string;
}

export interface HarnessOptions {
  ca?: string;
  secureCookies?: boolean;
  smtp?: SmtpConfig;
  mailer?: Mailer;
  timeoutMs?: number;
  bootstrap?: { email: string; password: string; orgName: string };
  notices?: { lowBalanceNano: number | null; teamWarnAt: number };
}

/** Every name resolves to loopback, except PRIVATE_NAME which resolves to 10.0.0.7. */
export const testResolver: Resolver = {
  lookup: (host) => Promise.resolve([{ address: host === PRIVATE_NAME ? '10.0.0.7' : '127.0.0.1', family: 4 }]),
};

let seq = 0;

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const store = await createStore({ kind: 'memory', snapshotPath: null });
  const box = new SecretBox(randomBytes(32));
  const clock: Clock = { now: Date.now() };
  const guard = new SsrfGuard({ resolver: testResolver, allowAddresses: ['127.0.0.1'], ...(opts.ca === undefined ? {} : { ca: opts.ca }) });
  const dash = await startDashboard(
    {
      config: { serviceName: 'svc', maxBodyBytes: 1_000_000, defaultFallbacks: [] },
      store,
      guard,
      // Every dashboard test runs with webhook and channel secrets sealed at rest, as production does.
      secretBox: box,
      logger: new Logger('error', true, () => undefined),
      now: () => clock.now,
      ...(opts.mailer === undefined ? {} : { mailer: opts.mailer }),
    },
    {
      host: '127.0.0.1',
      port: 0,
      origin: ORIGIN,
      secureCookies: opts.secureCookies ?? true,
      webhookTimeoutMs: opts.timeoutMs ?? 400,
      channelTestTimeoutMs: opts.timeoutMs ?? 400,
      smtp: opts.smtp ?? null,
      bootstrap: opts.bootstrap ?? null,
      ...(opts.notices === undefined ? {} : { notices: opts.notices }),
    },
  );
  const base = `http://127.0.0.1:${dash.port}`;
  const s = dash.services;

  const call = async (method: string, path: string, o: CallOpts = {}): Promise<CallResult> => {
    const headers: Record<string, string> = {};
    const defaults: Record<string, string> = { origin: ORIGIN };
    if (o.body !== undefined || o.raw !== undefined) defaults['content-type'] = 'application/json';
    for (const [k, v] of Object.entries({ ...defaults, ...o.headers })) if (v !== null) headers[k] = v;
    if (o.cookie !== undefined) headers.cookie = o.cookie;
    const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const res = await request(`${base}${path}`, { method: method as 'GET', headers, ...(body === undefined ? {} : { body }) });
    const text = await res.body.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = {};
    }
    return { status: res.statusCode, headers: res.headers, json, text };
  };

  const addUser = async (orgId: string, role: Role): Promise<TestUser> => {
    const email = `${role}.${++seq}.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const u = await s.users.createUser(email, PASSWORD);
    await s.users.setRole(orgId, u.id, role);
    // Sessions are made directly here (scrypt is ~100 ms); the sign-in route has its own tests.
    const session = await s.sessions.create(u.id);
    return { id: u.id, email, cookie: `svc_session=${session.id}` };
  };

  const org = async (roles: Role[] = ['owner']): Promise<TestOrg> => {
    const o = await s.orgs.create(`org ${++seq}`);
    const users: TestOrg['users'] = { owner: undefined, org_admin: undefined, member: undefined };
    for (const role of roles) users[role] = await addUser(o.id, role);
    const first = roles[0] === undefined ? undefined : users[roles[0]];
    return { id: o.id, users, cookie: first?.cookie ?? '' };
  };

  return {
    dash,
    store,
    sealedStore: sealedKv(store, box),
    clock,
    base,
    org,
    addUser,
    call,
    async close() {
      await dash.close();
      await store.close();
    },
  };
}

/** Waits out the end of a fixed one-minute window so a burst of hits lands in one window. */
export async function awayFromMinuteEdge(needMs = 5_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}
