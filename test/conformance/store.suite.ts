/**
 * The Store contract suite. Every implementation runs it in a few lines (store-memory.test.ts,
 * store-redis.test.ts); an answer that differs between them is a bug in one of them.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { admitCases } from './store-admit.cases.js';
import { creditCases } from './store-credit.cases.js';
import { kvCases } from './store-kv.cases.js';
import { recordCases } from './store-records.cases.js';
import { settleCases } from './store-settle.cases.js';

/** `ledgerCap` lets one case see trimming without settling 100k entries; every other case uses the default. */
export type MakeStore = (opts?: { ledgerCap?: number }) => Promise<{ store: Store; cleanup: () => Promise<void> }>;

export function storeContractSuite(name: string, makeStore: MakeStore): void {
  describe(`Store contract: ${name}`, () => {
    let current: { store: Store; cleanup: () => Promise<void> } | null = null;
    const get = (): Store => {
      if (current === null) throw new Error('store not created');
      return current.store;
    };
    beforeEach(async () => {
      current = await makeStore();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = null;
    });

    describe('orgs, teams, keys', () => recordCases(get));
    describe('admission', () => admitCases(get));
    describe('credits and holds', () => creditCases(get));
    describe('settlement, ledger, spend', () => settleCases(get, makeStore));
    describe('kv, hit, ping', () => kvCases(get));
  });
}
