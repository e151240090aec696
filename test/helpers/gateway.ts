import { usdToNano } from '../../src/billing/money.js';
import { loadConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/schema.js';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import { keyRecord, newKeyValue, type KeyOptions } from '../../src/keys/mint.js';
import { Logger } from '../../src/obs/logger.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { SIM_ENV } from '../../src/sim/upstream-urls.js';
import type { KeyRecord, OrgRecord, Store } from '../../src/store/contract.js';
import { createStore } from '../../src/store/index.js';

export interface TestGateway {
  url: string;
  gw: Gateway;
  store: Store;
  sim: Simulator;
  orgId: string;
  key: string;
  keyRecord: KeyRecord;
  logs: string[];
  /** Mints another key in the test org (or another org). */
  addKey(opts?: KeyOptions & { orgId?: string; prefix?: 'sk-svc-' | 'sk-legacy-' }): Promise<{ value: string; record: KeyRecord }>;
  addOrg(id: string, creditUsd: number, patch?: Partial<OrgRecord>): Promise<void>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  creditUsd?: number;
  config?: Record<string, unknown>;
  store?: Store;
  /** Edits the resolved config before start (e.g. catalog changes). */
  patch?: (c: GatewayConfig) => void;
  /** Environment the gateway reads (merged over the simulator URLs and SVC_METRICS_TOKEN=METRICS_TOKEN). */
  env?: Record<string, string | undefined>;
  /** false: log lines are dropped instead of collected in `logs` (long runs measuring memory). */
  keepLogs?: boolean;
}

/** The bearer token test gateways require on GET /metrics. */
export const METRICS_TOKEN = 'test-metrics-token';

/** A real uWS gateway on a free port in front of the simulator, with a funded org and a key. */
export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const sim = await startSimulator({});
  const config = loadConfig(
    { SVC_DEV_BOOTSTRAP: 'false' },
    {
      host: '127.0.0.1',
      port: 0,
      store: { kind: 'memory', snapshotPath: null },
      log: { level: 'info', json: true },
      settlement: { batchSize: 64, flushMs: 5 },
      keyCacheTtlMs: 0,
      ...(opts.config ?? {}),
    } as never,
  );
  config.models = simulatedCatalog(DEMO_CATALOG, {}, sim.url).models;
  opts.patch?.(config);
  const store = opts.store ?? (await createStore({ kind: 'memory', snapshotPath: null }));
  const logs: string[] = [];
  const logger = new Logger('info', true, opts.keepLogs === false ? () => undefined : (l) => logs.push(l));
  const gw = await startGateway(config, store, { env: { ...SIM_ENV, SVC_METRICS_TOKEN: METRICS_TOKEN, ...opts.env }, logger });
  const addOrg = async (id: string, creditUsd: number, patch: Partial<OrgRecord> = {}): Promise<void> => {
    await store.createOrg({
      id,
      name: id,
      status: 'active',
      createdAt: Date.now(),
      fallbacks: [],
      rpm: null,
      tpm: null,
      maxConcurrency: null,
      priceCeilingPerMTok: null,
      ...patch,
    });
    if (creditUsd > 0) await store.topUp(id, usdToNano(creditUsd), `seed-${id}`);
  };
  const orgId = 'org-test';
  if (!(await store.getOrg(orgId))) await addOrg(orgId, opts.creditUsd ?? 100);
  const addKey: TestGateway['addKey'] = async (o = {}) => {
    const value = newKeyValue(o.prefix ?? 'sk-svc-');
    const record = keyRecord(o.orgId ?? orgId, 'test', value, o);
    await store.createKey(record);
    return { value, record };
  };
  const first = await addKey();
  return {
    url: `http://127.0.0.1:${gw.port}`,
    gw,
    store,
    sim,
    orgId,
    key: first.value,
    keyRecord: first.record,
    logs,
    addKey,
    addOrg,
    async close() {
      await gw.close();
      await store.close();
      await sim.close();
    },
  };
}
