import { admitStage } from './admit.js';
import { authStage } from './authenticate.js';
import type { GatewayDeps } from './deps.js';
import type { Flow } from './flow.js';
import type { Stage } from './stage.js';

/**
 * The chain of the unmetered routes (models, count_tokens): the key, then its limits (RPM, concurrency; no
 * TPM tokens). Admission re-checks the key's status in the Store, so a revoked key is refused here as on
 * the inference routes, and a rate-limited key cannot spend worker-pool CPU on token counting.
 */
export function unmeteredChain(deps: GatewayDeps): readonly Stage<Flow>[] {
  const { config, store, log } = deps;
  return [authStage(deps.auth), admitStage({ store, auth: deps.auth, limits: config.limits, leaseTtlMs: config.leases.ttlMs, log })];
}
