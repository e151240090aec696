import { dirname, join } from 'node:path';
import { replayJournal, SettlementJournal } from './billing/settlement-journal.js';
import { loadConfig } from './config/load.js';
import { ConfigError } from './config/fields.js';
import { needsSimulator, seedDev, simulatedCatalog } from './dev/bootstrap.js';
import { startGateway } from './gateway.js';
import { Logger } from './obs/logger.js';
import { dashboardOptionsFromEnv, startDashboard } from './dashboard/index.js';
import { secretBoxFor } from './dashboard/secrets-key.js';
import { Catalog } from './routing/catalog.js';
import { watchCatalog } from './routing/reload.js';
import { startSimulator, type Simulator } from './sim/server.js';
import { SIM_ENV } from './sim/upstream-urls.js';
import { DataDirLockedError, lockDataDir, type DataDirLock } from './store/data-dir-lock.js';
import { createStore } from './store/index.js';
import { defaultDbPath } from './store/memory/memory-store.js';

/** `make run`: config -> store -> (dev simulator) -> gateway; graceful shutdown flushes settlement. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
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
  const log = new Logger(config.log.level, config.log.json);
  // State kept on this machine: the embedded store (beside its snapshot path) or, on Redis, the data dir.
  const stateDir = config.store.kind === 'memory' ? (config.store.snapshotPath && dirname(config.store.snapshotPath)) : config.dataDir;
  let lock: DataDirLock | null = null;
  try {
    lock = stateDir ? lockDataDir(stateDir) : null;
  } catch (e) {
    if (!(e instanceof DataDirLockedError)) throw e;
    process.stderr.write(`svc: ${e.message}\n`);
    process.exit(1);
  }
  const store = await createStore(
    config.store.kind === 'redis'
      ? { kind: 'redis', url: config.store.url, commandTimeoutMs: config.store.commandTimeoutMs }
      : { kind: 'memory', snapshotPath: config.store.snapshotPath },
  );
  // Settlement reaches this journal before a response's last byte; what a crash left unapplied is applied now.
  const journal = stateDir ? new SettlementJournal(join(stateDir, 'journal')) : null;
  if (journal) {
    const r = await replayJournal(journal, (batch) => store.settle(batch));
    if (r.replayed > 0) log.warn('settlement journal replayed', { entries: r.replayed, newly_applied: r.applied });
    for (const x of r.refused) log.error('journaled settlement refused by the store; kept in the journal', { request_id: x.requestId, error: x.error });
  }
  let sim: Simulator | null = null;
  let simulated: string[] = [];
  if (config.dev.bootstrap && needsSimulator(config, env)) {
    sim = await startSimulator({ port: config.dev.simulatorPort, host: '127.0.0.1' });
    ({ models: config.models, simulated } = simulatedCatalog(config.models, env, sim.url));
  }
  const gw = await startGateway(config, store, { env: sim ? { ...SIM_ENV, ...env } : env, logger: log, journal });
  const dev = config.dev.bootstrap ? await seedDev(store, config, stateDir ? join(stateDir, 'dev-key') : null) : null;
  const dashOpts = dashboardOptionsFromEnv(env, { host: config.host, port: config.dashboardPort });
  const secrets = secretBoxFor(config, env);
  if (!secrets.box) log.warn('webhook and channel secrets are stored unsealed: set SVC_SECRETS_KEY');
  const dash = await startDashboard({ config, store, logger: log, secretBox: secrets.box }, dashOpts);
  gw.deps.settlement.onFlushed = (batch) => dash.services.notices.afterSettlement(batch);
  const simUrl = sim?.url;
  const watcher = env.SVC_CONFIG
    ? await watchCatalog({
        path: env.SVC_CONFIG,
        env,
        intervalMs: config.catalogReloadMs,
        log,
        transform: (models) => (simUrl ? simulatedCatalog(models, env, simUrl).models : models),
        apply: (models) => gw.setCatalog(new Catalog(models, config.aliases)),
      })
    : null;

  const providers = [...new Set(config.models.flatMap((m) => m.endpoints.map((e) => `${e.provider}@${new URL(e.baseUrl).host}`)))];
  const lines = [
    '',
    `svc gateway ready`,
    `  inference   http://${config.host}:${gw.port}  (/v1/chat/completions, /v1/completions, /v1/responses, /v1/messages[/count_tokens], /v1/models, /metrics, /healthz)`,
    `  dashboard   http://${config.host}:${dash.port}  (/api/auth, /api/keys, /api/credits, /api/spend, /api/webhooks, /api/notification-channels; origin ${dashOpts.origin})`,
    `  store       ${config.store.kind === 'redis' ? `redis ${config.store.url.replace(/\/\/[^@]*@/, '//***@')}` : `embedded (${config.store.snapshotPath === null ? 'throwaway' : `LMDB ${defaultDbPath(config.store.snapshotPath)}`})`}`,
    `  providers   ${providers.join(', ')}`,
    `  models      ${config.models.length} (${simulated.length} served by the built-in simulator${sim ? ` at ${sim.url}` : ''})`,
    `  guardrails  ${config.guardrails.mode}`,
    `  secrets     sealed with ${secrets.source}`,
  ];
  if (dev) {
    lines.push(
      `  dev org     ${dev.orgId} (credit seeded: $${config.dev.creditUsd})`,
      `  dev key     ${dev.key}`,
      '',
      `  curl -s http://127.0.0.1:${gw.port}/v1/chat/completions -H 'authorization: Bearer ${dev.key}' \\`,
      `    -H 'content-type: application/json' -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'`,
    );
  }
  process.stderr.write(lines.join('\n') + '\n\n');

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    watcher?.stop();
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

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    process.stderr.write(`svc: fatal: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
