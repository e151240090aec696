import { hash as oneShotHash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { GatewayError } from '../errors/gateway-error.js';
import type { IncomingRequest } from '../server/types.js';
import { StoreUnavailableError, type KeyRecord, type OrgRecord, type RecordStore, type TeamRecord } from '../store/contract.js';
import type { Invalidation, InvalidationListener } from '../store/invalidation.js';
import type { Flow } from './flow.js';
import { ipAllowed } from './ip-policy.js';
import type { Stage } from './stage.js';

export const KEY_PREFIXES = ['sk-svc-', 'sk-legacy-'] as const;

/**
 * Failed key attempts (missing, malformed or unknown key) one client address may make per minute; past it
 * the address gets 429 for the rest of the minute, before any key is looked up (security hardening,
 * finding 6). Counted in the Store, so the count is shared by every node.
 */
export const AUTH_FAILURES_PER_MINUTE = 30;
/** Keys whose record, organization and team are cached (more active keys than this are read from the Store again). */
const KEY_CACHE_MAX = 10_000;
const FAILURE_WINDOW_MS = 60_000;
/** Key-cache TTL while the invalidation subscription is down (changes may be missed meanwhile). */
export const DEGRADED_KEY_CACHE_TTL_MS = 1_000;

/** SHA-256 of a key, hex. The one-shot crypto.hash (Node 20.12+): 0.3 us against 1.2 us for a Hash object. */
export function hashKey(value: string): string {
  return oneShotHash('sha256', value, 'hex');
}

export interface Principal {
  key: KeyRecord;
  org: OrgRecord;
  /** The key's team (limits, budget), cached with the key; null when the key has none. */
  team: TeamRecord | null;
  /** `sk-...<last4>` */
  alias: string;
  legacy: boolean;
}

function refuse(reason: string, message: string): GatewayError {
  return new GatewayError('invalid_api_key', { message, headers: { 'x-svc-auth-reason': reason } });
}

function forbid(reason: string, message: string): GatewayError {
  return new GatewayError('key_forbidden', { message, code: reason, headers: { 'x-svc-auth-reason': reason } });
}

/** Reads the presented key: `Authorization: Bearer`, or `x-api-key` where the route allows it (messages). */
export function presentedKey(req: IncomingRequest, allowXApiKey: boolean): string | null {
  const auth = req.headers.get('authorization');
  if (auth !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : null;
  }
  if (allowXApiKey) return req.headers.get('x-api-key') ?? null;
  return null;
}

interface Cached {
  key: KeyRecord;
  org: OrgRecord;
  team: TeamRecord | null;
}

/**
 * Stage 1: key authentication, organization state and key policy (IP, route, expiry). The key record, its
 * organization and its team are cached together by key hash, so the hot path reads none of them from the
 * Store; concurrent misses for one key share one lookup. A cached record can be up to `ttlMs` stale in its
 * limits and budget, never in its status: admission re-checks the status atomically in the Store, so a
 * revocation bites on the very next request on every node. Every other change made through the dashboard or
 * the CLI (limits, budget, expiry, team, organization suspension) evicts the affected entries on every node
 * through the invalidation bus (`onInvalidate`); while the bus is down entries live `DEGRADED_KEY_CACHE_TTL_MS`.
 */
export class Authenticator implements InvalidationListener {
  readonly #cache: LRUCache<string, Cached>;
  readonly #ttlMs: number;
  /** Bumped by every eviction: a lookup that started before it must not cache what it read. */
  #generation = 0;
  #degraded = false;
  readonly #loading = new Map<string, Promise<Cached | null>>();
  /**
   * Addresses over the failure limit, until the end of their window. Only the fast path: an evicted address is
   * throttled again by its failure counter in the Store. lru-cache allocates its arrays for `max` entries up front
   * (100k and 50k here held ~5 MiB resident per Authenticator before a single entry), hence the modest sizes.
   */
  readonly #throttled = new LRUCache<string, true>({ max: 10_000, ttl: FAILURE_WINDOW_MS });

  constructor(
    private readonly store: Pick<RecordStore, 'getKeyByHash' | 'getOrg' | 'getTeam' | 'hit'>,
    ttlMs: number,
    private readonly failuresPerMinute = AUTH_FAILURES_PER_MINUTE,
  ) {
    this.#ttlMs = Math.max(ttlMs, 1);
    this.#cache = new LRUCache({ max: KEY_CACHE_MAX, ttl: this.#ttlMs });
  }

  /** Evicts what a dashboard or CLI change made stale (one key, or every key of a team or organization). */
  onInvalidate(msg: Invalidation): void {
    this.#generation++;
    if (msg.kind === 'key') {
      this.#cache.delete(msg.hash);
      return;
    }
    for (const [hash, c] of this.#cache.entries()) {
      if (c.org.id !== msg.orgId) continue;
      if (msg.kind === 'org' || c.key.teamId === msg.teamId) this.#cache.delete(hash);
    }
  }

  /**
   * The invalidation subscription went down (changes may now be missed: entries live a short TTL) or came
   * back (whatever was cached meanwhile is dropped, as a missed change may cover it).
   */
  onLink(up: boolean): void {
    this.#generation++;
    this.#degraded = !up;
    this.#cache.clear();
  }

  /** True while the invalidation subscription is down or not yet confirmed (entries live the short TTL). */
  get degraded(): boolean {
    return this.#degraded;
  }

  /** Entries the cache holds (tests). */
  get cached(): number {
    return this.#cache.size;
  }

  #throttle(): GatewayError {
    return new GatewayError('rate_limit_exceeded', {
      message: 'Too many failed API key attempts from this address; retry in a minute.',
      headers: { 'retry-after': String(FAILURE_WINDOW_MS / 1000), 'x-svc-auth-reason': 'auth_throttled' },
    });
  }

  /** Counts a failed attempt of `ip`; the refusal to throw (429 once the address is over the limit). */
  async #failed(ip: string, refusal: GatewayError): Promise<GatewayError> {
    let n = 0;
    try {
      n = await this.store.hit(`auth-fail:${ip}`, FAILURE_WINDOW_MS);
    } catch {
      return refusal; // a store outage must not turn a 401 into a 5xx
    }
    if (n <= this.failuresPerMinute) return refusal;
    this.#throttled.set(ip, true);
    return this.#throttle();
  }

  async authenticate(req: IncomingRequest, route: string, allowXApiKey = false): Promise<Principal> {
    // The size check first: reading the client address costs a system call, and almost always nothing is throttled.
    if (this.#throttled.size > 0 && this.#throttled.has(req.ip)) throw this.#throttle();
    try {
      return await this.#authenticate(req, route, allowXApiKey);
    } catch (e) {
      if (e instanceof GatewayError && e.status === 401 && e.headers['x-svc-auth-reason'] === 'unauthorized') throw await this.#failed(req.ip, e);
      throw e;
    }
  }

  invalidate(hash: string): void {
    this.#cache.delete(hash);
  }

  async #load(hash: string): Promise<Cached | null> {
    const generation = this.#generation;
    let key: KeyRecord | null;
    let org: OrgRecord | null = null;
    let team: TeamRecord | null = null;
    try {
      key = await this.store.getKeyByHash(hash);
      if (key) [org, team] = await Promise.all([this.store.getOrg(key.orgId), key.teamId ? this.store.getTeam(key.orgId, key.teamId) : null]);
    } catch (e) {
      if (e instanceof StoreUnavailableError) {
        throw new GatewayError('service_unavailable', {
          message: 'Key store temporarily unavailable.',
          headers: { 'x-svc-auth-reason': 'auth_backend_unavailable' },
          cause: e,
        });
      }
      throw e;
    }
    // Constant-time comparison of the stored hash with the presented key's hash.
    if (!key || !org || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    const hit = { key, org, team };
    if (generation === this.#generation) this.#cache.set(hash, hit, this.#degraded ? { ttl: Math.min(this.#ttlMs, DEGRADED_KEY_CACHE_TTL_MS) } : undefined);
    return hit;
  }

  async #authenticate(req: IncomingRequest, route: string, allowXApiKey: boolean): Promise<Principal> {
    const value = presentedKey(req, allowXApiKey);
    if (value === null) throw refuse('unauthorized', 'Missing API key: send Authorization: Bearer <key>.');
    if (!KEY_PREFIXES.some((p) => value.startsWith(p)) || value.length > 256) {
      throw refuse('unauthorized', 'Invalid API key.');
    }
    const hash = hashKey(value);
    let hit = this.#cache.get(hash);
    if (!hit) {
      let loading = this.#loading.get(hash);
      if (!loading) {
        loading = this.#load(hash).finally(() => this.#loading.delete(hash));
        this.#loading.set(hash, loading);
      }
      const loaded = await loading;
      if (!loaded) throw refuse('unauthorized', 'Invalid API key.');
      hit = loaded;
    }
    const { key, org, team } = hit;
    const expired = key.expiresAt !== null && key.expiresAt <= Date.now();
    if (key.status !== 'active' || expired || org.status !== 'active') {
      // A refused key is not kept: once it is resumed or renewed, the very next request reads the store again, on
      // every instance, however late the invalidation reaches this one (a cached suspended organization kept
      // refusing a resumed key until its invalidation arrived). Blocking needs no cache: admission checks the
      // key's status in the store on every request.
      this.#cache.delete(hash);
      if (key.status !== 'active') throw refuse('key_blocked', `This key is ${key.status}.`);
      if (expired) throw refuse('key_expired', 'This key has expired.');
      throw refuse('key_blocked', 'The organization of this key is suspended.');
    }
    if (key.allowedIps !== null) {
      const ok = ipAllowed(req.ip, key.allowedIps);
      if (ok === null) throw forbid('key_network_policy_invalid', "The key's network policy is invalid.");
      if (!ok) throw forbid('key_ip_not_allowed', 'This key may not be used from this address.');
    }
    if (key.allowedRoutes !== null && !key.allowedRoutes.includes(route)) {
      throw forbid('key_route_not_allowed', `This key may not use ${route}.`);
    }
    return { key, org, team, alias: `sk-...${key.last4}`, legacy: key.prefix === 'sk-legacy-' };
  }
}

/** Stage 1 of every chain: who is calling (no undo: it takes nothing). */
export function authStage(auth: Pick<Authenticator, 'authenticate'>): Stage<Flow> {
  return {
    name: 'authenticate',
    async run(f) {
      f.st.principal = await auth.authenticate(f.req, f.endpoint, f.allowXApiKey);
    },
  };
}
