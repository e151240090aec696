import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebhooksService } from '../../../src/dashboard/webhooks-service.js';
import { fileSecretsKey, parseSecretsKey, sealedKv, SecretBox } from '../../../src/events/secret-box.js';
import { createStore } from '../../../src/store/index.js';

const publicGuard = {
  resolveAndCheck: (url: URL) => Promise.resolve({ ok: true as const, hostname: url.hostname, address: '93.184.216.34', family: 4 as const }),
  request: () => Promise.resolve({ kind: 'response' as const, status: 200 }),
};

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV per value', () => {
    const a = box.seal('whsec_1234567890');
    expect(a).not.toContain('whsec');
    expect(box.seal('whsec_1234567890')).not.toBe(a);
    expect(box.open(a)).toBe('whsec_1234567890');
  });

  it('refuses tampered envelopes and the wrong key', () => {
    const sealed = box.seal('secret value');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('v0:abc')).toThrow('unknown envelope');
  });

  it('reads SVC_SECRETS_KEY as base64 or hex; refuses other lengths', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('hex')).equals(key)).toBe(true);
    expect(() => parseSecretsKey('c2hvcnQ=')).toThrow('32 bytes');
  });

  it('creates a key file once, mode 0600, and reuses it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-key-')), 'secrets.key');
    const k1 = fileSecretsKey(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(fileSecretsKey(path).equals(k1)).toBe(true);
    expect(readFileSync(path, 'utf8').trim()).toBe(k1.toString('base64'));
  });

  it('webhook records are sealed at rest; the service still reads the signing secret back', async () => {
    const store = await createStore({ kind: 'memory', snapshotPath: null });
    const webhooks = new WebhooksService(sealedKv(store, box), publicGuard, Date.now);
    const row = await webhooks.register('org-1', 'user-1', { url: 'https://hooks.example.com/in', events: ['key.created'], secret: 'whsec_very_secret_value' });
    const raw = JSON.stringify(await store.kvGet(`webhook:org-1:${row.id}`));
    expect(raw).not.toContain('whsec_very_secret_value');
    expect(raw).not.toContain('hooks.example.com');
    expect(JSON.stringify(row)).not.toContain('whsec');
    expect(await webhooks.targets('org-1', 'key.created')).toEqual([{ id: row.id, url: 'https://hooks.example.com/in', secret: 'whsec_very_secret_value' }]);
    await store.close();
  });
});
