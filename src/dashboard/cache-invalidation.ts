/**
 * Publishes key-cache invalidations for the changes the dashboard and the operator CLI make (keys, teams,
 * organizations), so every gateway node evicts the stale entries at once. Awaited before the action answers
 * (one PUBLISH), never failing it: a failed publish is logged and the gateways' key-cache TTL bounds the
 * staleness.
 */
import type { Logger } from '../obs/logger.js';
import type { Invalidation, InvalidationBus } from '../store/invalidation.js';

export class CacheInvalidator {
  constructor(
    private readonly bus: InvalidationBus,
    private readonly log: Logger,
  ) {}

  key(hash: string): Promise<void> {
    return this.#publish({ kind: 'key', hash });
  }

  team(orgId: string, teamId: string): Promise<void> {
    return this.#publish({ kind: 'team', orgId, teamId });
  }

  org(orgId: string): Promise<void> {
    return this.#publish({ kind: 'org', orgId });
  }

  async #publish(msg: Invalidation): Promise<void> {
    if (!(await this.bus.publish(msg))) {
      this.log.warn('key-cache invalidation not published; gateways serve the cached record until their key-cache TTL', {
        ...msg,
      });
    }
  }
}
