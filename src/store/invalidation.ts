/**
 * Key-cache invalidation on every gateway node at once. The dashboard and the operator CLI publish a message
 * whenever they change a key, a team or an organization; every gateway process subscribes and evicts the
 * affected entries of its key cache, so the change bites on the very next request on every node with no
 * per-request round trip.
 *
 * Redis: plain PUBLISH on one channel (broadcast cluster-wide on Redis Cluster too) and one dedicated
 * subscriber connection per gateway process. The embedded store is single-process: an in-process bus.
 */
import { EventEmitter } from 'node:events';
import type { Cluster, Redis } from 'ioredis';

export const INVALIDATION_CHANNEL = 'svc:invalidate';
/** The subscriber connection is PINGed this often; no answer within the timeout counts as lost. */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 2_000;

/** What changed: one key (by the sha256 of its value), every key of a team, or every key of an organization. */
export type Invalidation =
  | { kind: 'key'; hash: string }
  | { kind: 'team'; orgId: string; teamId: string }
  | { kind: 'org'; orgId: string };

export interface InvalidationListener {
  onInvalidate(msg: Invalidation): void;
  /**
   * The subscription is (re)established (`true`) or lost (`false`). While lost, messages may be missed: the
   * listener must not trust its cache beyond a short TTL; on return it must drop what it cached meanwhile.
   */
  onLink(up: boolean): void;
}

export interface InvalidationBus {
  /** Never throws: a failed publish is reported to the caller's log by the returned flag. */
  publish(msg: Invalidation): Promise<boolean>;
  /** Starts delivering to `listener`; the returned function stops it. */
  subscribe(listener: InvalidationListener): () => Promise<void>;
}

const HEX64 = /^[0-9a-f]{64}$/;
const ID = /^[\w.:-]{1,200}$/;

/** Parses a message off the channel; null for anything malformed (a foreign publisher, a newer version). */
export function parseInvalidation(raw: string): Invalidation | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const id = (x: unknown): x is string => typeof x === 'string' && ID.test(x);
  if (o.kind === 'key' && typeof o.hash === 'string' && HEX64.test(o.hash)) return { kind: 'key', hash: o.hash };
  if (o.kind === 'org' && id(o.orgId)) return { kind: 'org', orgId: o.orgId };
  if (o.kind === 'team' && id(o.orgId) && id(o.teamId)) return { kind: 'team', orgId: o.orgId, teamId: o.teamId };
  return null;
}

/** In-process bus (embedded store: the dashboard, the CLI and the gateway share one process and one store). */
export class LocalInvalidationBus implements InvalidationBus {
  readonly #events = new EventEmitter();

  constructor() {
    this.#events.setMaxListeners(0);
  }

  publish(msg: Invalidation): Promise<boolean> {
    this.#events.emit('msg', msg);
    return Promise.resolve(true);
  }

  subscribe(listener: InvalidationListener): () => Promise<void> {
    const on = (msg: Invalidation): void => listener.onInvalidate(msg);
    this.#events.on('msg', on);
    listener.onLink(true);
    return () => {
      this.#events.off('msg', on);
      return Promise.resolve();
    };
  }
}

/**
 * Redis pub/sub. `publish` uses the store's command connection; each `subscribe` opens its own connection
 * (a connection in subscriber mode can run no other command), which reconnects on its own.
 */
export class RedisInvalidationBus implements InvalidationBus {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly heartbeat = { everyMs: HEARTBEAT_MS, timeoutMs: HEARTBEAT_TIMEOUT_MS },
  ) {}

  async publish(msg: Invalidation): Promise<boolean> {
    try {
      await this.redis.publish(INVALIDATION_CHANNEL, JSON.stringify(msg));
      return true;
    } catch {
      return false;
    }
  }

  subscribe(listener: InvalidationListener): () => Promise<void> {
    // The subscriber must queue its SUBSCRIBE until connected and re-subscribe after a reconnect (ioredis
    // does both with the offline queue on and autoResubscribe); it runs no other command.
    const opts = { lazyConnect: false, enableOfflineQueue: true, autoResubscribe: true, commandTimeout: undefined, maxRetriesPerRequest: null };
    let sub: Redis | Cluster;
    if (this.redis.isCluster) {
      const cluster = this.redis as Cluster;
      sub = cluster.duplicate(undefined, { lazyConnect: false, enableOfflineQueue: true, redisOptions: { ...cluster.options.redisOptions, ...opts } });
    } else {
      sub = (this.redis as Redis).duplicate(opts);
    }
    let up = false;
    const link = (next: boolean): void => {
      if (next === up) return;
      up = next;
      listener.onLink(next);
    };
    sub.on('message', (channel: string, raw: string) => {
      if (channel !== INVALIDATION_CHANNEL) return;
      const msg = parseInvalidation(raw);
      if (msg !== null) listener.onInvalidate(msg);
    });
    // `ready` follows every (re)connect, after ioredis has re-sent SUBSCRIBE; confirm it before trusting the link.
    const confirm = (): void => {
      sub.subscribe(INVALIDATION_CHANNEL).then(
        () => link(true),
        () => link(false),
      );
    };
    sub.on('ready', confirm);
    sub.on('close', () => link(false));
    sub.on('error', () => undefined); // reported through onLink; ioredis reconnects by itself
    // A connection that died silently (no FIN: a partition) would never close: a PING that gets no answer
    // in time drops it, so the listener degrades and ioredis reconnects.
    const heartbeat = setInterval(() => {
      if (!up) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.heartbeat.timeoutMs)));
      void Promise.race([sub.ping().catch(() => 'late' as const), late]).then((r) => {
        clearTimeout(timer);
        if (r === 'late' && up) {
          link(false);
          sub.disconnect(true);
        }
      });
    }, this.heartbeat.everyMs);
    heartbeat.unref();
    return async () => {
      clearInterval(heartbeat);
      sub.removeAllListeners('close');
      sub.disconnect();
      await Promise.resolve();
    };
  }
}
