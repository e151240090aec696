import type { Agent } from 'undici';
import type { SettlementQueue } from '../billing/settlement.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Logger } from '../obs/logger.js';
import type { Metrics } from '../obs/metrics.js';
import type { WorkerPool } from '../pool/pool.js';
import type { ScoreBatcher } from '../pool/score-batcher.js';
import type { Catalog } from '../routing/catalog.js';
import type { EndpointHealth } from '../routing/health.js';
import type { Store } from '../store/contract.js';
import type { Authenticator } from './authenticate.js';

/** Everything the stages need, wired once in main.ts. */
export interface GatewayDeps {
  config: GatewayConfig;
  store: Store;
  /** Current catalog (hot reload swaps it). */
  catalog(): Catalog;
  health: EndpointHealth;
  pool: WorkerPool;
  /** Guardrail scoring: known texts from the score cache, the rest micro-batched onto the pool. */
  scorer: Pick<ScoreBatcher, 'score'>;
  auth: Authenticator;
  agent: Agent;
  settlement: SettlementQueue;
  log: Logger;
  metrics: Metrics;
  env: NodeJS.ProcessEnv;
}
