import type { Logger } from '../obs/logger.js';
import type { Store } from '../store/contract.js';
import type { EndpointHealth } from './health.js';

const PREFIX = 'health:open:';

/**
 * Shares open circuit breakers between gateway nodes through the Store, where it matters: a node that opens
 * a breaker publishes it (kv with the cool-down as TTL), and every node polls the published state of its
 * catalog's endpoints off the hot path. Latency estimates stay per node (each node measures its own path).
 */
export class HealthSync {
  #timer: NodeJS.Timeout | null = null;
  #published = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly health: EndpointHealth,
    private readonly keys: () => string[],
    private readonly cooldownMs: number,
    private readonly log: Logger,
  ) {}

  start(intervalMs: number): void {
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Publishes breakers this node opened, adopts breakers other nodes opened. */
  async tick(): Promise<void> {
    try {
      for (const key of this.keys()) {
        const local = this.health.openedAt(key);
        if (local !== null && this.#published.get(key) !== local) {
          await this.store.kvSet(PREFIX + key, { openedAt: local }, this.cooldownMs);
          this.#published.set(key, local);
          continue;
        }
        const remote = await this.store.kvGet<{ openedAt: number }>(PREFIX + key);
        if (remote && remote.openedAt !== local) this.health.openFromPeer(key, remote.openedAt);
      }
    } catch (e) {
      this.log.debug('health sync skipped', { error: (e as Error).message });
    }
  }
}
