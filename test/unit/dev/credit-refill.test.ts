/**
 * The dev org's credit is refilled only while every model is simulated, only once it has fallen below half the
 * seed, back to the seed exactly, and once per interval (the idempotency key) however many checks run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usdToNano } from '../../../src/billing/money.js';
import { DEMO_CATALOG } from '../../../src/routing/demo-catalog.js';
import { DEV_ORG_ID, everyEndpointSimulated, refillSimulatedCredit, seedDev, simulatedCatalog, type CreditRefill } from '../../../src/dev/bootstrap.js';
import { loadConfig } from '../../../src/config/load.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { settlement } from '../../conformance/store-fixtures.js';

const SEED = usdToNano(100);
const SIM = 'http://127.0.0.1:9999';

let store: Store;
let refill: CreditRefill | null = null;
const refills: number[] = [];
const failures: unknown[] = [];

async function spend(usd: number, n: number): Promise<void> {
  const key = (await store.listKeys(DEV_ORG_ID))[0]!;
  await store.settle([settlement(DEV_ORG_ID, key.id, { requestId: `spend-${n}`, cost: usdToNano(usd), hadHold: false })]);
}

async function available(): Promise<number> {
  const b = await store.getBalance(DEV_ORG_ID);
  return b.balance - b.held;
}

beforeEach(async () => {
  store = await createStore({ kind: 'memory', snapshotPath: null });
  await seedDev(store, loadConfig({ SVC_DEV_BOOTSTRAP: 'true' }));
  refills.length = 0;
  failures.length = 0;
});

afterEach(async () => {
  refill?.stop();
  refill = null;
  await store.close();
});

function start(simulatedOnly: () => boolean, intervalMs = 60_000): CreditRefill {
  refill = refillSimulatedCredit(store, SEED, simulatedOnly, { refilled: (a) => refills.push(a), failed: (e) => failures.push(e) }, intervalMs);
  return refill;
}

describe('dev credit refill', () => {
  it('tops the available credit back up to the seed once it is below half, and not before', async () => {
    const r = start(() => true);
    expect(await available()).toBe(SEED);
    await spend(49, 1);
    expect(await r.check()).toBe(0);
    expect(await available()).toBe(usdToNano(51));
    await spend(2, 2);
    expect(await r.check()).toBe(usdToNano(51));
    expect(await available()).toBe(SEED);
    expect(refills).toEqual([usdToNano(51)]);
    expect(failures).toEqual([]);
  });

  it('counts held credit as spent', async () => {
    const r = start(() => true);
    await store.hold({ orgId: DEV_ORG_ID, requestId: 'held-1', amount: usdToNano(60), now: Date.now(), ttlMs: 60_000, budgets: [] });
    expect(await r.check()).toBe(usdToNano(60));
    await store.releaseHold(DEV_ORG_ID, 'held-1');
    expect(await available()).toBe(usdToNano(160));
  });

  it('refills a balance that went negative back to the seed', async () => {
    const r = start(() => true);
    await spend(120, 1); // settlement may overdraw by what an estimate missed
    expect(await available()).toBe(usdToNano(-20));
    expect(await r.check()).toBe(usdToNano(120));
    expect(await available()).toBe(SEED);
  });

  it('adds nothing while any model reaches a real provider', async () => {
    let simulated = false;
    const r = start(() => simulated);
    await spend(90, 1);
    expect(await r.check()).toBe(0);
    expect(await available()).toBe(usdToNano(10));
    simulated = true; // a catalog reload re-pointed the last real model at the simulator
    expect(await r.check()).toBe(usdToNano(90));
  });

  it('adds once per interval however many checks (or processes) run in it', async () => {
    const a = start(() => true);
    const b = refillSimulatedCredit(store, SEED, () => true, { refilled: () => {}, failed: () => {} }, 60_000);
    try {
      await spend(80, 1);
      await Promise.all([a.check(), b.check()]);
      expect(await available()).toBe(SEED);
    } finally {
      b.stop();
    }
  });

  it('runs on its timer', async () => {
    start(() => true, 50);
    await spend(70, 1);
    for (let i = 0; i < 100 && refills.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(refills).toEqual([usdToNano(70)]);
    expect(await available()).toBe(SEED);
  });
});

describe('everyEndpointSimulated', () => {
  it('is true only when every endpoint of every model points at the simulator', () => {
    const all = simulatedCatalog(DEMO_CATALOG, {}, SIM).models;
    expect(everyEndpointSimulated(all, SIM)).toBe(true);
    const someReal = simulatedCatalog(DEMO_CATALOG, { OPENAI_API_KEY: 'sk-real' }, SIM).models;
    expect(everyEndpointSimulated(someReal, SIM)).toBe(false);
    expect(everyEndpointSimulated([], SIM)).toBe(false);
    // A real server whose port starts with the simulator's digits is not the simulator.
    const [first, ...rest] = all;
    const lookalike = { ...first!, endpoints: [{ ...first!.endpoints[0]!, baseUrl: `${SIM}1/v1` }] };
    expect(everyEndpointSimulated([lookalike, ...rest], SIM)).toBe(false);
  });
});
