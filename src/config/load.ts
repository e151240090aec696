import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DEMO_ALIASES, DEMO_CATALOG } from '../routing/demo-catalog.js';
import { providerNames } from '../providers/registry.js';
import { ConfigError, FieldReader, unknownFields, type Json, type JsonObject } from './fields.js';
import { mergeById, readAliases, readEndpoint, readModels } from './models.js';
import { CONFIG_FIELDS, GUARD_CATEGORIES, type GatewayConfig, type GuardCategory, type GuardSecondStageConfig } from './schema.js';
import { DEFAULT_INLINE_MAX_CHARS } from '../pool/inline-scorer.js';
import { DEFAULT_LOOP_BACKLOG_CHARS } from '../pool/sliced-scorer.js';
import { RESPONSE_TTL_MS, RESPONSES_MAX_PER_ORG } from '../responses-store/responses-store.js';

function parseFile(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError([`SVC_CONFIG: cannot read ${path}: ${(e as Error).message}`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError([`SVC_CONFIG: ${path} is not valid JSON: ${(e as Error).message}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError([`SVC_CONFIG: ${path} must hold a JSON object`]);
  }
  return parsed as JsonObject;
}

/** The optional second guardrail stage; null when absent. */
function readSecondStage(r: FieldReader, raw: Json | undefined, guardTimeoutMs: number): GuardSecondStageConfig | null {
  if (raw === undefined || raw === null) return null;
  const path = 'guardrails.secondStage';
  const s = r.obj(raw, path);
  const endpoint = readEndpoint(r, s.endpoint ?? {}, `${path}.endpoint`, MODERATION_PROVIDERS);
  const band = r.obj(s.band ?? {}, `${path}.band`);
  const from = r.num(band, 'from', `${path}.band`, 0.5, 0.01, 0.99);
  const to = r.num(band, 'to', `${path}.band`, 1.5, 1, 100);
  return {
    endpoint,
    band: { from, to },
    timeoutMs: r.int(s, 'timeoutMs', path, guardTimeoutMs, 1, guardTimeoutMs),
    priceUsd: r.num(s, 'priceUsd', path, 0, 0, 1),
  };
}

/** Providers whose API has the OpenAI moderation endpoint (`POST <baseUrl>/moderations`). */
const MODERATION_PROVIDERS = ['openai', 'openai-compatible'];

/**
 * Builds the validated config: defaults <- file (SVC_CONFIG) <- environment. Throws ConfigError listing
 * every bad field at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, fileOverride?: JsonObject): GatewayConfig {
  const r = new FieldReader();
  const file: JsonObject = fileOverride ?? (env.SVC_CONFIG ? parseFile(env.SVC_CONFIG) : {});
  unknownFields(file, CONFIG_FIELDS, '', r.problems);
  const top: JsonObject = { ...file };
  r.fromEnv(env, 'SVC_PORT', top, 'port', 'int');
  r.fromEnv(env, 'SVC_DASHBOARD_PORT', top, 'dashboardPort', 'int');
  r.fromEnv(env, 'SVC_HOST', top, 'host', 'str');
  r.fromEnv(env, 'SVC_MAX_BODY_BYTES', top, 'maxBodyBytes', 'int');

  const storeRaw: JsonObject = { ...r.obj(top.store, 'store') };
  if (env.SVC_REDIS_URL) {
    storeRaw.kind = 'redis';
    storeRaw.url = env.SVC_REDIS_URL;
  }
  const dataDir = env.SVC_DATA_DIR ?? '.svc-data';
  const storeKind = r.oneOf(storeRaw, 'kind', 'store', 'memory', ['memory', 'redis'] as const);
  const store: GatewayConfig['store'] =
    storeKind === 'redis'
      ? {
          kind: 'redis',
          url: r.str(storeRaw, 'url', 'store', 'redis://127.0.0.1:6379'),
          commandTimeoutMs: r.int(storeRaw, 'commandTimeoutMs', 'store', 1000, 10, 60_000),
        }
      : {
          kind: 'memory',
          snapshotPath:
            storeRaw.snapshotPath === null ? null : r.str(storeRaw, 'snapshotPath', 'store', join(dataDir, 'store.msgpack')),
        };

  const guardRaw: JsonObject = { ...r.obj(top.guardrails, 'guardrails') };
  r.fromEnv(env, 'SVC_GUARDRAILS_MODE', guardRaw, 'mode', 'str');
  const thresholdsRaw = r.obj(guardRaw.thresholds, 'guardrails.thresholds');
  const thresholds: Partial<Record<GuardCategory, number>> = {};
  for (const [k, v] of Object.entries(thresholdsRaw)) {
    if (!(GUARD_CATEGORIES as readonly string[]).includes(k)) {
      r.problems.push(`guardrails.thresholds.${k}: unknown category (known: ${GUARD_CATEGORIES.join(', ')})`);
    } else if (typeof v !== 'number' || v <= 0 || v > 1) {
      r.problems.push(`guardrails.thresholds.${k}: expected a number in (0, 1]`);
    } else thresholds[k as GuardCategory] = v;
  }

  const guardTimeoutMs = r.int(guardRaw, 'timeoutMs', 'guardrails', 250, 1, 60_000);

  const devRaw: JsonObject = { ...r.obj(top.dev, 'dev') };
  r.fromEnv(env, 'SVC_DEV_KEY', devRaw, 'key', 'str');
  r.fromEnv(env, 'SVC_DEV_BOOTSTRAP', devRaw, 'bootstrap', 'bool');
  const devKey = r.optStr(devRaw, 'key', 'dev');
  if (devKey !== null && (!devKey.startsWith('sk-svc-') || devKey.length < 20)) {
    r.problems.push('SVC_DEV_KEY (dev.key): must start with sk-svc- and be at least 20 characters');
  }

  const logRaw: JsonObject = { ...r.obj(top.log, 'log') };
  r.fromEnv(env, 'SVC_LOG_LEVEL', logRaw, 'level', 'str');
  r.fromEnv(env, 'SVC_LOG_JSON', logRaw, 'json', 'bool');

  const sub = (k: string): JsonObject => r.obj(top[k], k);
  const holds = sub('holds');
  const leases = sub('leases');
  const settlement = sub('settlement');
  const responses = sub('responses');
  const workers = sub('workers');
  const upstream = sub('upstream');
  const limits = sub('limits');
  const health = sub('health');

  // `"extends": "builtin"` keeps the demo catalog and its aliases and merges the file's entries by id (an
  // entry with a built-in id replaces it); without it, a file's `models` is the whole catalog.
  const extendsBuiltin = top.extends !== undefined && r.oneOf(top, 'extends', 'config', 'builtin', ['builtin'] as const) === 'builtin';
  const ownModels = readModels(r, top.models as Json | undefined, 'models', extendsBuiltin ? [] : DEMO_CATALOG, providerNames());
  const models = extendsBuiltin ? mergeById(DEMO_CATALOG, ownModels) : ownModels;
  const builtinAliases = extendsBuiltin || top.models === undefined ? DEMO_ALIASES : [];
  const config: GatewayConfig = {
    serviceName: r.str(top, 'serviceName', 'config', 'svc'),
    host: r.str(top, 'host', 'config', '0.0.0.0'),
    port: r.int(top, 'port', 'config', 8080, 0, 65535),
    dashboardPort: r.int(top, 'dashboardPort', 'config', 8081, 0, 65535),
    maxBodyBytes: r.int(top, 'maxBodyBytes', 'config', 4 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    maxJsonDepth: r.int(top, 'maxJsonDepth', 'config', 64, 4, 1024),
    store,
    dataDir,
    models,
    aliases: extendsBuiltin
      ? mergeById(DEMO_ALIASES, readAliases(r, top.aliases as Json | undefined, 'aliases', [], models))
      : readAliases(r, top.aliases as Json | undefined, 'aliases', builtinAliases, models),
    defaultFallbacks: r.strList(top, 'defaultFallbacks', 'config', []),
    guardrails: {
      mode: r.oneOf(guardRaw, 'mode', 'guardrails', 'enforce', ['enforce', 'monitor', 'off'] as const),
      thresholds,
      timeoutMs: guardTimeoutMs,
      maxChars: r.int(guardRaw, 'maxChars', 'guardrails', 32_768, 256, 10_000_000),
      inlineMaxChars: r.int(guardRaw, 'inlineMaxChars', 'guardrails', DEFAULT_INLINE_MAX_CHARS, 0, 16_384),
      loopBacklogChars: r.int(guardRaw, 'loopBacklogChars', 'guardrails', DEFAULT_LOOP_BACKLOG_CHARS, 0, 10_000_000),
      secondStage: readSecondStage(r, guardRaw.secondStage, guardTimeoutMs),
    },
    holds: { ttlMs: r.int(holds, 'ttlMs', 'holds', 15 * 60_000, 1000) },
    leases: { ttlMs: r.int(leases, 'ttlMs', 'leases', 10 * 60_000, 1000) },
    settlement: {
      batchSize: r.int(settlement, 'batchSize', 'settlement', 256, 1, 100_000),
      flushMs: r.int(settlement, 'flushMs', 'settlement', 50, 1, 60_000),
    },
    responses: {
      ttlMs: r.int(responses, 'ttlMs', 'responses', RESPONSE_TTL_MS, 1000, 30 * 24 * 3_600_000),
      maxPerOrg: r.int(responses, 'maxPerOrg', 'responses', RESPONSES_MAX_PER_ORG, 1, 100_000_000),
    },
    keyCacheTtlMs: r.int(top, 'keyCacheTtlMs', 'config', 5_000, 0, 3_600_000),
    health: {
      alpha: r.num(health, 'alpha', 'health', 0.3, 0.01, 1),
      failureThreshold: r.int(health, 'failureThreshold', 'health', 3, 1, 1000),
      cooldownMs: r.int(health, 'cooldownMs', 'health', 30_000, 10, 3_600_000),
      probeIntervalMs: r.int(health, 'probeIntervalMs', 'health', 15_000, 10, 3_600_000),
      syncMs: r.int(health, 'syncMs', 'health', 2_000, 50, 60_000),
    },
    shutdownGraceMs: r.int(top, 'shutdownGraceMs', 'config', 30_000, 0, 600_000),
    catalogReloadMs: r.int(top, 'catalogReloadMs', 'config', 10_000, 50, 60_000),
    limits: {
      userRpm: limits.userRpm === undefined ? null : r.int(limits, 'userRpm', 'limits', 0, 1),
      userTpm: limits.userTpm === undefined ? null : r.int(limits, 'userTpm', 'limits', 0, 1),
    },
    workers: workerCounts(r, workers),
    upstream: {
      connectMs: r.int(upstream, 'connectMs', 'upstream', 5_000, 1),
      firstByteMs: r.int(upstream, 'firstByteMs', 'upstream', 60_000, 1),
      idleMs: r.int(upstream, 'idleMs', 'upstream', 60_000, 1),
      totalMs: r.int(upstream, 'totalMs', 'upstream', 600_000, 1),
    },
    dev: {
      // Off unless asked for (`make run` asks): it seeds credit and prints a live key.
      bootstrap: r.bool(devRaw, 'bootstrap', 'dev', false),
      key: devKey,
      creditUsd: r.num(devRaw, 'creditUsd', 'dev', 100, 0, 1_000_000),
      simulatorPort: r.int(devRaw, 'simulatorPort', 'dev', 0, 0, 65535),
    },
    log: {
      level: r.oneOf(logRaw, 'level', 'log', 'info', ['debug', 'info', 'warn', 'error'] as const),
      json: r.bool(logRaw, 'json', 'log', true),
    },
  };
  if (config.workers.min > config.workers.max) r.problems.push('workers.min: must not exceed workers.max');
  for (const fb of config.defaultFallbacks) {
    if (!config.models.some((m) => m.id === fb)) r.problems.push(`defaultFallbacks: unknown model ${JSON.stringify(fb)}`);
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}

/**
 * workers.min (default 0: scoring threads start when a long text needs one and stop 60 s after their last task, short
 * texts being scored on the event loop) and workers.max (default: defaultMaxWorkers, raised to an explicit min).
 */
function workerCounts(r: FieldReader, workers: JsonObject): { min: number; max: number } {
  const min = r.int(workers, 'min', 'workers', 0, 0, 64);
  return { min, max: r.int(workers, 'max', 'workers', Math.max(min, 1, defaultMaxWorkers(availableParallelism())), 1, 64) };
}

/**
 * Default piscina threads: the cores the event loop leaves, at least one. Measured on 2 cores
 * (bench/results/latest.md, "Piscina workers"): 1 worker gave the best throughput and p99, and each extra
 * worker holds its own copy of the guard model and, once it counts tokens, of the o200k ranks (~20-50 MiB).
 */
export function defaultMaxWorkers(cores: number): number {
  return Math.max(1, cores - 1);
}
