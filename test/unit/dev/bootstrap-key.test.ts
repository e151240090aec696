import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { DEV_ORG_ID, seedDev } from '../../../src/dev/bootstrap.js';
import { hashKey } from '../../../src/pipeline/authenticate.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';

describe('dev key across restarts of one data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-devkey-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (): MemoryStore => new MemoryStore({ snapshotPath: join(dir, 'store.msgpack') });
  const config = (env: Record<string, string> = {}): ReturnType<typeof loadConfig> => loadConfig({ SVC_DEV_BOOTSTRAP: 'true', ...env }, {} as never);

  it('reuses the key kept in the 0600 file while it is active; mints (and revokes the old) when it is not', async () => {
    const file = join(dir, 'dev-key');
    const a = open();
    const first = await seedDev(a, config(), file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await a.close();

    const b = open();
    expect((await seedDev(b, config(), file)).key).toBe(first.key);
    expect((await b.getKeyByHash(hashKey(first.key)))?.status).toBe('active');
    expect((await b.listKeys(DEV_ORG_ID)).length).toBe(1);

    // Revoked by an operator: the next start mints a new key instead of printing a dead one.
    const rec = (await b.getKeyByHash(hashKey(first.key)))!;
    await b.updateKey(DEV_ORG_ID, rec.id, { status: 'revoked' });
    const second = await seedDev(b, config(), file);
    expect(second.key).not.toBe(first.key);
    expect((await b.getKeyByHash(hashKey(second.key)))?.status).toBe('active');

    // A file made readable by others is tightened back to 0600 when read.
    chmodSync(file, 0o644);
    expect((await seedDev(b, config(), file)).key).toBe(second.key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await b.close();
  });

  it('a pinned SVC_DEV_KEY wins and is never written to the file; no file means a fresh key each start', async () => {
    const file = join(dir, 'dev-key');
    const s = open();
    const pinned = 'sk-svc-pinned-dev-key-000000000000000000000000';
    expect((await seedDev(s, config({ SVC_DEV_KEY: pinned }), file)).key).toBe(pinned);
    expect(() => statSync(file)).toThrow();
    const a = await seedDev(s, config(), null);
    const b = await seedDev(s, config(), null);
    expect(a.key).not.toBe(b.key);
    expect((await s.getKeyByHash(hashKey(a.key)))?.status).toBe('revoked');
    writeFileSync(file, 'sk-svc-not-in-the-store\n', { mode: 0o600 });
    const c = await seedDev(s, config(), file);
    expect(c.key).not.toBe('sk-svc-not-in-the-store');
    await s.close();
  });
});
