import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { loadScripts, projectRoot } from '../../src/store/redis/scripts.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { storeContractSuite } from './store.suite.js';

let server: RedisServer;
beforeAll(async () => void (server = await startRedisServer()));
afterAll(async () => server.stop());

storeContractSuite('redis', async (opts) => {
  const store = await createStore({ kind: 'redis', url: server.url, ...opts });
  return { store, cleanup: () => store.close() };
});

describe('redis lua scripts', () => {
  it('are found from compiled output as from sources, with includes inlined', () => {
    const root = projectRoot();
    expect(projectRoot(join(root, 'dist', 'src', 'store', 'redis', 'scripts.js'))).toBe(root);
    const scripts = loadScripts();
    expect(scripts.hold.source).toContain('local function hold_release');
    expect(scripts.hold.source).not.toMatch(/^--#include/m);
  });
});
