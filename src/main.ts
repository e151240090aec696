import { loadConfig } from './config/load.js';
import { missingCredentials, type MissingCredential } from './config/credentials.js';
import { ConfigError } from './config/fields.js';
import { needsSimulator, seedDev, simulatedCatalog } from './dev/bootstrap.js';
import { startGateway } from './gateway.js';
import { Logger } from './obs/logger.js';
import { dashboardOptionsFromEnv, startDashboard } from './dashboard/index.js';
import { secretBoxFor } from './dashboard/secrets-key.js';
import type { ModelConfig } from './config/schema.js';
import { Catalog } from './routing/catalog.js';
import { DEMO_CATALOG } from './routing/demo-catalog.js';
import { watchCatalog } from './routing/reload.js';
import { startSimulator, type Simulator } from './sim/server.js';
import { SIM_ENV } from './sim/upstream-urls.js';
import { createStore } from './store/index.js';

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
  const store = await createStore(
    config.store.kind === 'redis'
      ? { kind: 'redis', url: config.store.url, commandTimeoutMs: config.store.commandTimeoutMs }
      : { kind: 'memory', snapshotPath: config.store.snapshotPath },
  );
  // Named before the simulator re-points anything: the variables an operator must set for real upstreams.
  const unsetCredentials = missingCredentials(config.models, env);
  let sim: Simulator | null = null;
  let simulated: string[] = [];
  if (config.dev.bootstrap && needsSimulator(config, env)) {
    sim = await startSimulator({ port: config.dev.simulatorPort, host: '127.0.0.1' });
    ({ models: config.models, simulated } = simulatedCatalog(config.models, env, sim.url));
  }
  const gw = await startGateway(config, store, { env: sim ? { ...SIM_ENV, ...env } : env, logger: log });
  const dev = config.dev.bootstrap ? await seedDev(store, config) : null;
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
        apply: (models, aliases) => {
          gw.setCatalog(new Catalog(models, aliases));
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
    `  store       ${config.store.kind === 'redis' ? `redis ${config.store.url.replace(/\/\/[^@]*@/, '//***@')}` : `memory (snapshot ${config.store.snapshotPath ?? 'off'})`}`,
    `  providers   ${providers.join(', ')}`,
    `  models      ${config.models.length} (${simulated.length} served by the built-in simulator${sim ? ` at ${sim.url}` : ''})`,
    catalogLine(env, config.models),
    ...unsetCredentials.map(
      (c) =>
        `  credential  ${c.variable} is unset: ${c.models.join(', ')} ${sim ? 'served by the simulator' : 'will be refused by the provider'}`,
    ),
    `  guardrails  ${config.guardrails.mode}`,
    `  secrets     sealed with ${secrets.source}`,
  ];
  if (!sim) warnUnset(log, unsetCredentials);
  if (dev) {
    const demoModel = config.models.some((m) => m.id === 'gpt-4o-mini') ? 'gpt-4o-mini' : (config.models[0]?.id ?? 'gpt-4o-mini');
    lines.push(
      `  dev org     ${dev.orgId} (credit seeded: $${config.dev.creditUsd})`,
      `  dev key     ${dev.key}`,
      '',
      `  curl -s http://127.0.0.1:${gw.port}/v1/chat/completions -H 'authorization: Bearer ${dev.key}' \\`,
      `    -H 'content-type: application/json' -d '{"model":"${demoModel}","messages":[{"role":"user","content":"Hello"}]}'`,
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
