import { dirname, join } from 'node:path';
import { replayJournal } from './billing/journal-recovery.js';
import { SettlementJournal } from './billing/settlement-journal.js';
import { loadConfig } from './config/load.js';
import { missingCredentials, type MissingCredential } from './config/credentials.js';
import { ConfigError } from './config/fields.js';
import { unknownEnvNames } from './config/env-names.js';
import type { GatewayConfig } from './config/schema.js';
import { everyEndpointSimulated, needsSimulator, pointsAtSimulator, refillSimulatedCredit, seedDev, simulatedCatalog } from './dev/bootstrap.js';
import { formatUsd, usdToNano } from './billing/money.js';
import { startGateway } from './gateway.js';
import { newKeyValue } from './keys/mint.js';
import { Logger } from './obs/logger.js';
import { applyRuntimeHeapFlags, missingNodeFlags } from './memory-flags.js';
import { dashboardOptionsFromEnv, startDashboard } from './dashboard/index.js';
import { secretBoxFor } from './dashboard/secrets-key.js';
import type { ModelConfig } from './config/schema.js';
import { Catalog } from './routing/catalog.js';
import { endpointKey } from './routing/health.js';
import { DEMO_CATALOG } from './routing/demo-catalog.js';
import { watchCatalog } from './routing/reload.js';
import { assertNativeUws } from './server/app.js';
import { processCount, processIndex, reportReady, superviseProcesses } from './server/processes.js';
import { assertPortFree, StartupError } from './server/startup.js';
import { startSimulatorProcess, type SimulatorProcess } from './dev/sim-process.js';
import { SIM_ENV } from './sim/upstream-urls.js';
import { createStore, StoreUnavailableError } from './store/index.js';

const redact = (url: string): string => url.replace(/\/\/[^@]*@/, '//***@');

function fail(message: string): never {
  process.stderr.write(`svc: ${message}\n`);
  process.exit(1);
}
import { DataDirLockedError, lockDataDir, type DataDirLock } from './store/data-dir-lock.js';
import { defaultDbPath } from './store/memory/memory-store.js';

/**
 * Refuses to start on the uWS pure-JS fallback, on a busy port, or with SVC_PROCESSES > 1 off Redis (throws
 * StartupError). With SVC_PROCESSES > 1 it starts and supervises the children and returns true: this process
 * then serves nothing itself.
 */
async function startupChecks(config: GatewayConfig, env: NodeJS.ProcessEnv, dash: { host: string; port: number }): Promise<boolean> {
  const processes = processCount(env.SVC_PROCESSES);
  assertNativeUws();
  if (processes > 1 && config.store.kind !== 'redis') {
    throw new StartupError(
      `SVC_PROCESSES=${processes} needs the Redis store (credit, limits and keys must be shared between the processes); set SVC_REDIS_URL, or leave SVC_PROCESSES unset for one process on the embedded store.`,
    );
  }
  if (processes > 1 && config.port === 0) throw new StartupError(`SVC_PROCESSES=${processes} needs a fixed port: set SVC_PORT.`);
  await assertPortFree(config.host, config.port, 'inference', 'SVC_PORT');
  await assertPortFree(dash.host, dash.port, 'dashboard', 'SVC_DASHBOARD_PORT');
  if (processes === 1) return false;
  // One dev key for all processes: each would otherwise mint its own and revoke the others'.
  const childEnv = config.dev.bootstrap && !env.SVC_DEV_KEY ? { ...env, SVC_DEV_KEY: newKeyValue() } : env;
  const sup = await superviseProcesses(process.argv[1] ?? '', processes, childEnv, (l) => process.stderr.write(l + '\n'));
  process.stderr.write(`svc: ${processes} gateway processes share http://${config.host}:${config.port}\n`);
  const stopAll = (signal: NodeJS.Signals): void => void sup.stop(signal).then(() => process.exit(0));
  process.on('SIGINT', () => stopAll('SIGINT'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  return true;
}

/** `make run`: config -> store -> (dev simulator) -> gateway; graceful shutdown flushes settlement. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    applyRuntimeHeapFlags(env);
  } catch (e) {
    fail((e as Error).message);
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`svc: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const index = processIndex(env);
  const dashOpts = dashboardOptionsFromEnv(env, { host: config.host, port: config.dashboardPort });
  // Start-up checks run once, in the process the operator started (children of SVC_PROCESSES share the port).
  if (index === null) {
    try {
      if (await startupChecks(config, env, dashOpts)) return;
    } catch (e) {
      if (e instanceof StartupError) fail(e.message);
      throw e;
    }
  }
  const log = new Logger(config.log.level, config.log.json);
  const strayEnv = index === null || index === 0 ? unknownEnvNames(env) : [];
  const missingFlags = missingNodeFlags();
  if (missingFlags.length > 0 && (index === null || index === 0)) {
    log.info(`started without ${missingFlags.join(' ')}: more resident memory and a longer latency tail under load (docs/memory.md; make run and npm start pass them)`);
  }
  for (const u of strayEnv) {
    log.warn(`environment variable ${u.name} is not a setting of this gateway and is ignored`, { variable: u.name, did_you_mean: u.suggestion });
  }
  /** Set once the gateway runs: a restarted simulator's endpoints start afresh (their breakers, opened while it was down). */
  let forgetSimulatedHealth = (): void => {};
  // The dev simulator's process starts while the store opens (it exits with this one, whatever ends it).
  const simStarting =
    config.dev.bootstrap && needsSimulator(config, env)
      ? startSimulatorProcess(config.dev.simulatorPort, (r) => {
          if (!r.ok) return log.error('dev simulator could not be restarted', { error: r.error });
          log.warn('dev simulator restarted (it had exited)');
          forgetSimulatedHealth();
        })
      : null;
  simStarting?.catch(() => {}); // awaited below; a failure before then must not be an unhandled rejection
  // State kept on this machine: the embedded store (beside its snapshot path) or, on Redis, the data dir.
  const stateDir = config.store.kind === 'memory' ? (config.store.snapshotPath && dirname(config.store.snapshotPath)) : config.dataDir;
  // Each of SVC_PROCESSES' processes (Redis store only) keeps its own lock and settlement journal.
  const ownDir = stateDir && index !== null ? join(stateDir, `process-${index}`) : stateDir;
  let lock: DataDirLock | null = null;
  try {
    lock = ownDir ? lockDataDir(ownDir) : null;
  } catch (e) {
    if (!(e instanceof DataDirLockedError)) throw e;
    process.stderr.write(`svc: ${e.message}\n`);
    process.exit(1);
  }
  let store;
  try {
    store = await createStore(
      config.store.kind === 'redis'
        ? { kind: 'redis', url: config.store.url, commandTimeoutMs: config.store.commandTimeoutMs }
        : {
            kind: 'memory',
            snapshotPath: config.store.snapshotPath,
            remap: {
              // Released in place several times a second where the map is large and busy: debug, not info.
              onRelease: (e) =>
                e.ok
                  ? log.debug('embedded store map released (resident file pages given back)', { ms: Number(e.ms.toFixed(2)), freed_mib: Math.round(e.freedBytes / 2 ** 20) })
                  : log.error('embedded store map could not be released; its resident pages now grow with the file', { error: e.error }),
              onFallback: (reason) => log.warn(`embedded store: ${reason}`),
              onRemap: (e) =>
                e.ok
                  ? log.info('embedded store remapped (resident file pages given back)', { ms: Math.round(e.ms), gate_ms: Math.round(e.gateMs), write_gate_ms: Math.round(e.writeGateMs), freed_mib: Math.round(e.freedBytes / 2 ** 20) })
                  : log.error('embedded store could not be remapped', { error: e.error }),
            },
          },
    );
  } catch (e) {
    if (e instanceof StoreUnavailableError && config.store.kind === 'redis') {
      const reason = e.message.replace(/^redis (unavailable|at \S+): /, '').replace(/\.$/, '');
      fail(
        `cannot reach Redis at ${redact(config.store.url)} (${reason}): start Redis there, or set SVC_REDIS_URL to a reachable server (unset it to use the embedded store).`,
      );
    }
    throw e;
  }
  // Settlement reaches this journal before a response's last byte; what a crash left unapplied is applied now.
  const journal = ownDir ? new SettlementJournal(join(ownDir, 'journal')) : null;
  if (journal) {
    const r = await replayJournal(journal, (batch) => store.settle(batch));
    if (r.replayed > 0) log.warn('settlement journal replayed', { entries: r.replayed, newly_applied: r.applied });
    for (const x of r.refused) log.error('journaled settlement refused by the store; kept in the journal', { request_id: x.requestId, error: x.error });
  }
  // Named before the simulator re-points anything: the variables an operator must set for real upstreams.
  const unsetCredentials = missingCredentials(config.models, env);
  let sim: SimulatorProcess | null = null;
  let simulated: string[] = [];
  if (simStarting) {
    sim = await simStarting;
    ({ models: config.models, simulated } = simulatedCatalog(config.models, env, sim.url));
  }
  // Seeded before the gateway listens: a request that came in between (a client started with the gateway, the
  // tests' first request after /healthz) found no key yet and was answered 401.
  const dev = config.dev.bootstrap ? await seedDev(store, config, stateDir ? join(stateDir, 'dev-key') : null) : null;
  const gw = await startGateway(config, store, { env: sim ? { ...SIM_ENV, ...env } : env, logger: log, journal });
  const secrets = secretBoxFor(config, env);
  if (!secrets.box) log.warn('webhook and channel secrets are stored unsealed: set SVC_SECRETS_KEY');
  const dash = await startDashboard({ config, store, logger: log, secretBox: secrets.box }, dashOpts);
  gw.deps.settlement.onFlushed = (batch) => dash.services.notices.afterSettlement(batch);
  const simUrl = sim?.url;
  if (simUrl !== undefined) {
    forgetSimulatedHealth = () => {
      for (const m of gw.deps.catalog().models) for (const ep of m.endpoints) if (pointsAtSimulator(ep, simUrl)) gw.deps.health.forget(endpointKey(ep));
    };
  }
  let simulatedOnly = simUrl !== undefined && everyEndpointSimulated(config.models, simUrl);
  const refill =
    dev && simUrl !== undefined
      ? refillSimulatedCredit(store, usdToNano(config.dev.creditUsd), () => simulatedOnly, {
          refilled: (amount, available) =>
            log.info('dev org credit refilled (every model is simulated)', { added_usd: formatUsd(amount), available_usd: formatUsd(available) }),
          failed: (e) => log.error('dev org credit could not be refilled', { error: (e as Error)?.message ?? String(e) }),
        })
      : null;
  const watcher = env.SVC_CONFIG
    ? await watchCatalog({
        path: env.SVC_CONFIG,
        env,
        intervalMs: config.catalogReloadMs,
        log,
        transform: (models) => (simUrl ? simulatedCatalog(models, env, simUrl).models : models),
        apply: (models, aliases) => {
          gw.setCatalog(new Catalog(models, aliases));
          simulatedOnly = simUrl !== undefined && everyEndpointSimulated(models, simUrl);
          warnUnset(log, missingCredentials(models, env));
        },
      })
    : null;

  const providers = [...new Set(config.models.flatMap((m) => m.endpoints.map((e) => `${e.provider}@${new URL(e.baseUrl).host}`)))];
  const lines = [
    '',
    `svc gateway ready`,
    `  inference   http://${config.host}:${gw.port}  (/v1/chat/completions, /v1/completions, /v1/responses, /v1/messages[/count_tokens], /v1/models, /metrics, /healthz)`,
    `  dashboard   http://${config.host}:${dash.port}  (/api/auth, /api/keys, /api/credits, /api/spend, /api/webhooks, /api/notification-channels; origin ${dashOpts.origin})`,
    `  store       ${config.store.kind === 'redis' ? `redis ${redact(config.store.url)}` : `embedded (${config.store.snapshotPath === null ? 'throwaway' : `LMDB ${defaultDbPath(config.store.snapshotPath)}`})`}`,
    `  providers   ${providers.join(', ')}`,
    `  models      ${config.models.length} (${simulated.length} served by the built-in simulator${sim ? ` at ${sim.url}, pid ${sim.pid()}` : ''})`,
    catalogLine(env, config.models),
    ...unsetCredentials.map(
      (c) =>
        `  credential  ${c.variable} is unset: ${c.models.join(', ')} ${sim ? 'served by the simulator' : 'will be refused by the provider'}`,
    ),
    ...strayEnv.map((u) => `  ignored     ${u.name} is not a setting${u.suggestion ? ` (did you mean ${u.suggestion}?)` : ''}`),
    `  guardrails  ${gw.guardrails}`,
    `  secrets     sealed with ${secrets.source}`,
  ];
  if (!sim) warnUnset(log, unsetCredentials);
  if (dev) {
    const demoModel = config.models.some((m) => m.id === 'gpt-4o-mini') ? 'gpt-4o-mini' : (config.models[0]?.id ?? 'gpt-4o-mini');
    lines.push(
      `  dev org     ${dev.orgId} (credit seeded: $${config.dev.creditUsd}${simulatedOnly ? '; refilled while every model is simulated' : ''})`,
      `  dev key     ${dev.key}`,
      '',
      `  curl -s http://127.0.0.1:${gw.port}/v1/chat/completions -H 'authorization: Bearer ${dev.key}' \\`,
      `    -H 'content-type: application/json' -d '{"model":"${demoModel}","messages":[{"role":"user","content":"Hello"}]}'`,
    );
  }
  if (index === null || index === 0) process.stderr.write(lines.join('\n') + '\n\n');
  else process.stderr.write(`svc gateway process ${index} ready (pid ${process.pid}) on http://${config.host}:${gw.port}\n`);
  reportReady();

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    watcher?.stop();
    refill?.stop();
    await dash.close();
    await gw.close();
    await store.close();
    lock?.release();
    await sim?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** One warning per unset credential variable (the simulator serves none of these endpoints). */
function warnUnset(log: Logger, missing: MissingCredential[]): void {
  for (const c of missing) {
    log.warn(`credential variable ${c.variable} is unset: calls to its endpoints carry no credential`, {
      models: c.models.join(', '),
      endpoints: c.endpoints.join(', '),
    });
  }
}

/** What the catalog is made of, so a config that replaced the built-in models says so at start. */
function catalogLine(env: NodeJS.ProcessEnv, models: readonly ModelConfig[]): string {
  if (!env.SVC_CONFIG) return '  catalog     built-in (SVC_CONFIG adds models: see config.example.json)';
  const ids = new Set(models.map((m) => m.id));
  const builtin = DEMO_CATALOG.filter((m) => ids.has(m.id)).length;
  const made =
    builtin === DEMO_CATALOG.length
      ? `built-in + ${env.SVC_CONFIG} (${models.length} models)`
      : `${env.SVC_CONFIG} only (the built-in models are left out: "extends": "builtin" keeps them)`;
  return `  catalog     ${made}; hot-reloaded`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    process.stderr.write(`svc: fatal: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
