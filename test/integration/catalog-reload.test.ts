import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { Logger } from '../../src/obs/logger.js';
import { Catalog } from '../../src/routing/catalog.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { watchCatalog, type CatalogWatcher } from '../../src/routing/reload.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('catalog hot reload', () => {
  let t: TestGateway;
  let watcher: CatalogWatcher;
  const path = join(mkdtempSync(join(tmpdir(), 'svc-catalog-')), 'config.json');
  const write = (models: ModelConfig[]) => writeFileSync(path, JSON.stringify({ models }));
  const get = (p: string) => fetch(`${t.url}${p}`, { headers: { authorization: `Bearer ${t.key}` } });

  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
    write(DEMO_CATALOG);
    watcher = await watchCatalog({
      path,
      env: { SVC_CONFIG: path },
      intervalMs: 100,
      log: new Logger('error', true, () => {}),
      transform: (models) => simulatedCatalog(models, {}, t.sim.url).models,
      apply: (models) => t.gw.setCatalog(new Catalog(models)),
    });
  });
  afterAll(async () => {
    watcher.stop();
    await t.close();
  });

  it('a new model and a price change reach the listing and the detail ETag without restart', async () => {
    const before = await get('/v1/models/gpt-4o-mini');
    const etag = before.headers.get('etag');
    const changed = DEMO_CATALOG.map((m) => (m.id === 'gpt-4o-mini' ? { ...m, pricing: { input: 0.2, output: 0.8 } } : m));
    const added: ModelConfig = { ...DEMO_CATALOG[0]!, id: 'acme/new-model', ownedBy: 'acme' };
    await new Promise((r) => setTimeout(r, 20)); // a distinct mtime
    write([...changed, added]);
    let listed = false;
    for (let i = 0; i < 50 && !listed; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const body = (await (await get('/v1/models')).json()) as { data: { id: string }[] };
      listed = body.data.some((m) => m.id === 'acme/new-model');
    }
    expect(listed).toBe(true);
    const after = await get('/v1/models/gpt-4o-mini');
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as { pricing: { prompt: string } }).pricing.prompt).toBe('0.0000002');
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/new-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
    });
    expect(res.status).toBe(200);
  });

  it('an invalid file is ignored: the running catalog stays', async () => {
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path, '{"models": [{"id": ""}]}');
    expect(await watcher.check()).toBe(false);
    expect((await get('/v1/models/acme/new-model')).status).toBe(200);
  });
});
