import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { GatewayConfig, ModelConfig } from '../config/schema.js';
import { usdToNano, type NanoUsd } from '../billing/money.js';
import { hashKey } from '../pipeline/authenticate.js';
import { keyRecord, newKeyValue } from '../keys/mint.js';
import { simulatedEndpoint } from '../sim/upstream-urls.js';
import type { OrgRecord, Store } from '../store/contract.js';

export const DEV_ORG_ID = '00000000-0000-4000-8000-000000000001';
const DEV_KEY_NAME = 'dev';

/**
 * Re-points every endpoint whose credential is missing from the environment at the built-in simulator,
 * keeping its provider (the simulator speaks each provider's wire format); each provider gets its own path
 * prefix so health and stats tell them apart. Returns the catalog to serve and the ids that were re-pointed.
 */
export function simulatedCatalog(models: ModelConfig[], env: NodeJS.ProcessEnv, simUrl: string): { models: ModelConfig[]; simulated: string[] } {
  const simulated: string[] = [];
  const out = models.map((m) => {
    let touched = false;
    const endpoints = m.endpoints.map((ep) => {
      if (ep.apiKeyEnv === null || env[ep.apiKeyEnv]) return ep;
      touched = true;
      return simulatedEndpoint(ep, simUrl);
    });
    if (touched) simulated.push(m.id);
    return { ...m, endpoints };
  });
  return { models: out, simulated };
}

export function needsSimulator(config: GatewayConfig, env: NodeJS.ProcessEnv): boolean {
  return config.models.some((m) => m.endpoints.some((ep) => ep.apiKeyEnv !== null && !env[ep.apiKeyEnv]));
}

/** The dev key's plaintext, kept only in a 0600 file in the data directory (never in the store). */
function readDevKey(path: string): string | null {
  if (!existsSync(path)) return null;
  chmodSync(path, 0o600); // a copied or hand-edited file must not stay readable by other users
  const value = readFileSync(path, 'utf8').trim();
  return value.length > 0 ? value : null;
}

function writeDevKey(path: string, value: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, value + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Seeds the dev organization with credit (once: the top-up is idempotent) and issues a dev key. With
 * SVC_DEV_KEY the key value is pinned. Otherwise the key is kept across restarts of the same data directory:
 * its plaintext lives only in `keyFile` (mode 0600, beside the store; the store keeps the hash), and a new
 * key is minted (and the previous dev key revoked) only when that file is missing or its key is no longer
 * active. keyFile null (a throwaway store) mints a fresh key every start.
 */
export async function seedDev(store: Store, config: GatewayConfig, keyFile: string | null = null): Promise<{ orgId: string; key: string }> {
  if (!(await store.getOrg(DEV_ORG_ID))) {
    const org: OrgRecord = {
      id: DEV_ORG_ID,
      name: 'dev',
      status: 'active',
      createdAt: Date.now(),
      fallbacks: config.defaultFallbacks,
      rpm: null,
      tpm: null,
      maxConcurrency: null,
      priceCeilingPerMTok: null,
    };
    await store.createOrg(org);
  }
  await store.topUp(DEV_ORG_ID, usdToNano(config.dev.creditUsd), 'dev-seed');
  const pinned = config.dev.key;
  if (pinned && (await store.getKeyByHash(hashKey(pinned)))) return { orgId: DEV_ORG_ID, key: pinned };
  if (!pinned && keyFile !== null) {
    const kept = readDevKey(keyFile);
    const record = kept === null ? null : await store.getKeyByHash(hashKey(kept));
    if (kept !== null && record?.orgId === DEV_ORG_ID && record.status === 'active') return { orgId: DEV_ORG_ID, key: kept };
  }
  for (const k of await store.listKeys(DEV_ORG_ID)) {
    if (k.name === DEV_KEY_NAME && k.status === 'active') await store.updateKey(DEV_ORG_ID, k.id, { status: 'revoked' });
  }
  const value = pinned ?? newKeyValue();
  await store.createKey(keyRecord(DEV_ORG_ID, DEV_KEY_NAME, value));
  if (!pinned && keyFile !== null) writeDevKey(keyFile, value);
  return { orgId: DEV_ORG_ID, key: value };
}

/**
 * The endpoint is served by the simulator at `simUrl` (simulatedCatalog re-pointed it: its base URL is the simulator's
 * plus a path). The slash matters: `http://127.0.0.1:4200` must not claim a real server at `http://127.0.0.1:42001`.
 */
export function pointsAtSimulator(ep: Pick<ModelConfig['endpoints'][number], 'baseUrl'>, simUrl: string): boolean {
  return ep.baseUrl.startsWith(`${simUrl}/`);
}

/** Every endpoint of every model points at the simulator at `simUrl` (nothing the dev org spends is real money). */
export function everyEndpointSimulated(models: readonly ModelConfig[], simUrl: string): boolean {
  return models.length > 0 && models.every((m) => m.endpoints.every((ep) => pointsAtSimulator(ep, simUrl)));
}

export interface CreditRefill {
  /** Runs one check now (the timer runs it every intervalMs); resolves with the amount topped up (0: none). */
  check(): Promise<NanoUsd>;
  stop(): void;
}

/**
 * Keeps the dev organization's credit from running out while every model is served by the simulator: its money is
 * as simulated as its answers, and a load test of `make run` (at list prices, a long prompt to gpt-4o costs ~$0.001)
 * would otherwise spend the seeded $100 in minutes and see nothing but 402s. Each check tops the available credit
 * (balance less holds) back up to the seed once it has fallen below half of it: a real top-up, in the ledger and the
 * dashboard like any other (idempotency key `dev-refill-<n>`, one per interval, so processes sharing a Redis store
 * add it once). Nothing is added while any model reaches a real provider (`simulatedOnly` is asked at each check:
 * the catalog is hot-reloaded), so the seed stays a cap on real spend.
 */
export function refillSimulatedCredit(
  store: Store,
  seed: NanoUsd,
  simulatedOnly: () => boolean,
  events: { refilled(amount: NanoUsd, available: NanoUsd): void; failed(error: unknown): void },
  intervalMs = 5_000,
): CreditRefill {
  const check = async (): Promise<NanoUsd> => {
    if (seed <= 0 || !simulatedOnly()) return 0;
    const { balance, held } = await store.getBalance(DEV_ORG_ID);
    const available = balance - held;
    if (available >= seed / 2) return 0;
    const amount = seed - available;
    await store.topUp(DEV_ORG_ID, amount, `dev-refill-${Math.floor(Date.now() / intervalMs)}`);
    events.refilled(amount, available);
    return amount;
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((e: unknown) => events.failed(e))
      .finally(() => (running = false));
  }, intervalMs).unref();
  return { check, stop: () => clearInterval(timer) };
}
