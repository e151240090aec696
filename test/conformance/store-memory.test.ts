import { MemoryStore } from '../../src/store/memory/memory-store.js';
import { storeContractSuite } from './store.suite.js';

storeContractSuite('memory', async (opts) => {
  const store = new MemoryStore({ snapshotPath: null, ...opts });
  return { store, cleanup: () => store.close() };
});
