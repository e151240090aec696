/**
 * The ioredis connection, configured to fail closed and bounded: every command has a timeout, nothing is
 * queued while disconnected, and nothing is replayed after a reconnect (a timed-out call was already
 * reported to its caller as unavailable). Background reconnection brings the store back on its own.
 */
import { Cluster, Redis } from 'ioredis';
import { StoreUnavailableError } from '../contract.js';

export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export interface RedisConnectOptions {
  url: string;
  commandTimeoutMs?: number;
  /** How long createStore waits for the first connection before giving up. */
  connectTimeoutMs?: number;
  /** Ledger entries (and settle idempotency markers) kept per org; default LEDGER_CAP. */
  ledgerCap?: number;
}

/** Reply errors that mean "the server cannot serve right now", as opposed to a bug in a command. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS|OOM)\b/;

/** Maps a connection, timeout or transient server error to StoreUnavailableError; other errors pass through. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  if (err instanceof Error && err.name === 'ReplyError' && !TRANSIENT_REPLY.test(err.message)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StoreUnavailableError(`redis unavailable: ${message}`, { cause: err });
}

/** A standalone server or a Redis Cluster: every store command is single-key or single-slot. */
export type RedisClient = Redis | Cluster;

const CLUSTER_SCHEME = 'redis-cluster://';

/** `redis-cluster://host:port,host:port` names cluster seed nodes; anything else is one server. */
export function clusterSeeds(url: string): { host: string; port: number }[] | null {
  if (!url.startsWith(CLUSTER_SCHEME)) return null;
  return url
    .slice(CLUSTER_SCHEME.length)
    .split(',')
    .map((hp) => {
      const at = hp.lastIndexOf(':');
      return { host: hp.slice(0, at), port: Number(hp.slice(at + 1)) };
    });
}

export async function connectRedis(opts: RedisConnectOptions): Promise<RedisClient> {
  const commandTimeout = opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const nodeOptions = {
    commandTimeout,
    connectTimeout: Math.max(commandTimeout, 1_000),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    // Reconnect quickly and forever: the store must come back without a restart.
    retryStrategy: (times: number) => Math.min(50 * times, 500),
  };
  const seeds = clusterSeeds(opts.url);
  const redis: RedisClient = seeds
    ? new Cluster(seeds, {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: (times: number) => Math.min(50 * times, 500),
        redisOptions: nodeOptions,
      })
    : new Redis(opts.url, { lazyConnect: true, ...nodeOptions });
  // Errors surface through the failing commands; without a listener ioredis logs every reconnect attempt.
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`redis at ${redactUrl(opts.url)}: no connection within ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    );
  });
  try {
    await Promise.race([redis.connect(), timeout]);
    return redis;
  } catch (err) {
    redis.disconnect();
    throw toStoreError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** Bounded PING: false on error, on timeout, or while disconnected. */
export async function pingRedis(redis: RedisClient, timeoutMs: number): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((r) => r === 'PONG', () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Graceful QUIT, bounded; a dead server gets a hard disconnect instead. */
export async function closeRedis(redis: RedisClient, timeoutMs: number): Promise<void> {
  if (redis.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([redis.quit().then(() => undefined, () => undefined), timeout]);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
