/** The one typed configuration of the gateway (file via SVC_CONFIG, then env overrides). */

/** List prices in USD per million tokens, as providers publish them. */
export interface ModelPricing {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface EndpointConfig {
  /** Provider adapter name (registry key), e.g. `openai`. */
  provider: string;
  /** Model name as the upstream knows it. */
  upstreamModel: string;
  /** Upstream base URL including the version prefix, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Name of the environment variable holding the credential; null for unauthenticated servers. */
  apiKeyEnv: string | null;
  timeouts?: Partial<UpstreamTimeouts>;
  /** Static headers sent on every call to this endpoint (e.g. a provider's organization/project header). */
  headers?: Record<string, string>;
}

export interface UpstreamTimeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
  totalMs: number;
}

export interface ModelConfig {
  id: string;
  ownedBy: string;
  /** Unix seconds when cataloged. */
  created: number;
  contextLength: number;
  maxOutput: number;
  /** null only for operator-added self-hosted models (cost status `unpriced`). */
  pricing: ModelPricing | null;
  endpoints: EndpointConfig[];
}

/** Tiers of the svc/auto smart router (workers/classify.ts decides the tier of a prompt). */
export type AutoTier = 'simple' | 'tools' | 'long' | 'reasoning';

/**
 * Router aliases. `fastest`: the lowest-latency healthy endpoint among the family's models. `auto`: a model
 * of the prompt's tier (cheapest first), within the organization's price ceiling; fallbacks only to models
 * costing the same or less.
 */
export type AliasConfig =
  | { id: string; kind: 'fastest'; models: string[] }
  | { id: string; kind: 'auto'; tiers: Record<AutoTier, string[]> };

/** The guardrail categories: prompt injection + the seven moderation categories (one list, src/guard/labels.ts). */
import type { GuardLabel } from '../guard/labels.js';
export { GUARD_LABELS as GUARD_CATEGORIES } from '../guard/labels.js';
export type GuardCategory = GuardLabel;

export interface GuardrailConfig {
  /** `enforce` refuses over threshold; `monitor` scores and reports only; `off` skips inspection. */
  mode: 'enforce' | 'monitor' | 'off';
  /** Per-category thresholds (0..1); a category missing here uses the model file's default. */
  thresholds: Partial<Record<GuardCategory, number>>;
  /** A scorer slower than this is treated as unavailable (503, x-svc-guardrails: unavailable). */
  timeoutMs: number;
  /** Characters of prompt text scored; longer prompts get x-svc-guardrails: partial. */
  maxChars: number;
  /**
   * A request whose unscored texts add up to at most this many characters is scored on the event loop, with the
   * model the workers share with it, instead of in the worker pool (src/pool/inline-scorer.ts); 0 sends every text
   * to the pool.
   */
  inlineMaxChars: number;
  /**
   * Longer texts are scored on the event loop too, a slice of ~2 KB per step between the loop's I/O
   * (src/pool/sliced-scorer.ts), while at most this many characters wait there (with several organizations waiting,
   * each may have its equal share of it, and all together at most twice it); beyond it, and when 0, they go to the
   * worker pool. Only with inlineMaxChars above 0 (0 there sends every text to the pool).
   */
  loopBacklogChars: number;
  /** The optional second stage for the uncertain band (off = null, the default). */
  secondStage: GuardSecondStageConfig | null;
}

/**
 * A moderation model asked about the moderation categories whose first-stage score falls in the uncertain band
 * (src/guard/second-stage.ts). Called through the provider layer like any upstream; its verdict replaces the
 * first stage's for those categories only. Prompt injection stays with the first stage (moderation endpoints
 * do not judge it).
 */
export interface GuardSecondStageConfig {
  /** An OpenAI-format moderation API, `POST <baseUrl>/moderations` (provider `openai` or `openai-compatible`). */
  endpoint: EndpointConfig;
  /** A score in [from x threshold, to x threshold) is uncertain (0 < from < 1 <= to). */
  band: { from: number; to: number };
  /** The call's own deadline (at most guardrails.timeoutMs): later, the first stage's verdict stands. */
  timeoutMs: number;
  /** USD per call, added to the organization's charge for a served request (OpenAI's moderation API is free). */
  priceUsd: number;
}

export type StoreConfig =
  | { kind: 'memory'; snapshotPath: string | null }
  | { kind: 'redis'; url: string; commandTimeoutMs: number };

export interface GatewayConfig {
  serviceName: string;
  host: string;
  port: number;
  dashboardPort: number;
  /** Maximum JSON request body (bytes); larger gives 413 payload_too_large. */
  maxBodyBytes: number;
  /** Maximum JSON nesting depth; deeper gives 400. */
  maxJsonDepth: number;
  store: StoreConfig;
  /** SVC_DATA_DIR (default .svc-data): the embedded store, the settlement journal, the gateway lock. */
  dataDir: string;
  models: ModelConfig[];
  aliases: AliasConfig[];
  /** Organization default fallback chains are per org in the Store; this is the default for new orgs. */
  defaultFallbacks: string[];
  guardrails: GuardrailConfig;
  holds: { ttlMs: number };
  leases: { ttlMs: number };
  settlement: { batchSize: number; flushMs: number };
  /** Stored responses (/v1/responses): how long one can be continued, and how many an organization keeps (oldest go first). */
  responses: { ttlMs: number; maxPerOrg: number };
  keyCacheTtlMs: number;
  /** How long a graceful shutdown waits for requests in flight (ms). */
  shutdownGraceMs: number;
  /** Endpoint health: EWMA weight, breaker threshold and cool-down, exploratory probe interval. */
  health: { alpha: number; failureThreshold: number; cooldownMs: number; probeIntervalMs: number; syncMs: number };
  /** How often each node polls SVC_CONFIG for catalog changes (ms). */
  catalogReloadMs: number;
  /** Per end-user (`user` field) ceilings applied within each key; null = none. */
  limits: { userRpm: number | null; userTpm: number | null };
  workers: { min: number; max: number };
  upstream: UpstreamTimeouts;
  dev: {
    /** Seed a dev org + key and serve the catalog from the built-in simulator when no credentials exist. */
    bootstrap: boolean;
    key: string | null;
    creditUsd: number;
    simulatorPort: number;
  };
  log: { level: 'debug' | 'info' | 'warn' | 'error'; json: boolean };
}

/**
 * Every field a config file may hold, by path: `true` is a leaf, an object lists its keys, `[spec]` is an
 * array of `spec`, `'open'` is a map whose keys the reader validates itself (headers, thresholds). A key not
 * listed here is refused at start and on hot reload (`models[1].endpoints[0].provder: unknown field`), so a
 * new field is added here beside its type above.
 */
export type FieldSpec = true | 'open' | { readonly [key: string]: FieldSpec } | readonly [FieldSpec];

const TIMEOUT_FIELDS = { connectMs: true, firstByteMs: true, idleMs: true, totalMs: true } as const;

export const CONFIG_FIELDS: { readonly [key: string]: FieldSpec } = {
  extends: true,
  serviceName: true,
  host: true,
  port: true,
  dashboardPort: true,
  maxBodyBytes: true,
  maxJsonDepth: true,
  store: { kind: true, url: true, commandTimeoutMs: true, snapshotPath: true },
  models: [
    {
      id: true,
      ownedBy: true,
      created: true,
      contextLength: true,
      maxOutput: true,
      pricing: { input: true, output: true, cacheRead: true, cacheWrite: true },
      endpoints: [{ provider: true, upstreamModel: true, baseUrl: true, apiKeyEnv: true, timeouts: TIMEOUT_FIELDS, headers: 'open' }],
    },
  ],
  aliases: [{ id: true, kind: true, models: true, tiers: { simple: true, tools: true, long: true, reasoning: true } }],
  defaultFallbacks: true,
  guardrails: {
    mode: true,
    thresholds: 'open',
    timeoutMs: true,
    maxChars: true,
    inlineMaxChars: true,
    loopBacklogChars: true,
    secondStage: {
      endpoint: { provider: true, upstreamModel: true, baseUrl: true, apiKeyEnv: true, timeouts: TIMEOUT_FIELDS, headers: 'open' },
      band: { from: true, to: true },
      timeoutMs: true,
      priceUsd: true,
    },
  },
  holds: { ttlMs: true },
  leases: { ttlMs: true },
  settlement: { batchSize: true, flushMs: true },
  responses: { ttlMs: true, maxPerOrg: true },
  keyCacheTtlMs: true,
  shutdownGraceMs: true,
  health: { alpha: true, failureThreshold: true, cooldownMs: true, probeIntervalMs: true, syncMs: true },
  catalogReloadMs: true,
  limits: { userRpm: true, userTpm: true },
  workers: { min: true, max: true },
  upstream: TIMEOUT_FIELDS,
  dev: { bootstrap: true, key: true, creditUsd: true, simulatorPort: true },
  log: { level: true, json: true },
};
