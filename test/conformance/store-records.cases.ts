/** Contract cases: organizations, teams, keys and the key-hash index. */
import { expect, it } from 'vitest';
import type { KeyRecord, OrgRecord, Store } from '../../src/store/contract.js';
import { keyRecord, orgRecord, sha256, teamRecord, uid } from './store-fixtures.js';

export function recordCases(get: () => Store): void {
  it('stores an org exactly as given, lists it, and rejects a second org with the same id', async () => {
    const store = get();
    const a = orgRecord({ createdAt: 2_000, rpm: 100, priceCeilingPerMTok: 12.5 });
    const b = orgRecord({ createdAt: 1_000, status: 'suspended', fallbacks: [] });
    await store.createOrg(a);
    await store.createOrg(b);
    expect(await store.getOrg(a.id)).toEqual(a);
    expect(await store.getOrg(uid('org'))).toBeNull();
    const listed = (await store.listOrgs()).filter((o) => o.id === a.id || o.id === b.id);
    expect(listed).toEqual([b, a]);
    await expect(store.createOrg({ ...a, name: 'other' })).rejects.toThrow();
    expect((await store.getOrg(a.id))?.name).toBe('Acme');
  });

  it('patches an org, ignores id and createdAt, and returns null for an unknown org', async () => {
    const store = get();
    const org = orgRecord();
    await store.createOrg(org);
    const patch = { name: 'Renamed', tpm: 5_000, fallbacks: ['m1'], id: 'evil', createdAt: 1 } as Partial<OrgRecord>;
    const updated = await store.updateOrg(org.id, patch);
    const expected = { ...org, name: 'Renamed', tpm: 5_000, fallbacks: ['m1'] };
    expect(updated).toEqual(expected);
    expect(await store.getOrg(org.id)).toEqual(expected);
    expect(await store.updateOrg(uid('org'), { name: 'x' })).toBeNull();
    expect(await store.getOrg('evil')).toBeNull();
  });

  it('keeps teams per org, ordered by creation, and rejects a duplicate team id', async () => {
    const store = get();
    const org = orgRecord();
    const other = orgRecord();
    await store.createOrg(org);
    await store.createOrg(other);
    const t1 = teamRecord(org.id, { createdAt: 5, budget: 9_000_000_000, rpm: 7 });
    const t2 = teamRecord(org.id, { createdAt: 3 });
    await store.createTeam(t1);
    await store.createTeam(t2);
    expect(await store.getTeam(org.id, t1.id)).toEqual(t1);
    expect(await store.getTeam(other.id, t1.id)).toBeNull();
    expect(await store.listTeams(org.id)).toEqual([t2, t1]);
    expect(await store.listTeams(other.id)).toEqual([]);
    await expect(store.createTeam({ ...t1, name: 'dup' })).rejects.toThrow();
  });

  it('stores a key with every field, finds it by hash, and lists it in its org only', async () => {
    const store = get();
    const org = orgRecord();
    await store.createOrg(org);
    const key: KeyRecord = keyRecord(org.id, {
      teamId: 'team-1',
      expiresAt: 1_800_000_000_000,
      allowedModels: ['gpt-4o', 'claude-sonnet-4'],
      allowedRoutes: ['/v1/chat/completions'],
      allowedIps: ['10.0.0.0/8', '192.168.1.4'],
      budget: 5_000_000_000_000,
      budgetWarnAt: 0.8,
      rpm: 60,
      tpm: 100_000,
      maxConcurrency: 4,
      neverCompress: true,
      createdBy: 'user-1',
      prefix: 'sk-legacy-',
    });
    await store.createKey(key);
    expect(await store.getKey(org.id, key.id)).toEqual(key);
    expect(await store.getKeyByHash(key.hash)).toEqual(key);
    expect(await store.getKeyByHash(sha256('not a key'))).toBeNull();
    expect(await store.getKey(uid('org'), key.id)).toBeNull();
    const second = keyRecord(org.id, { createdAt: key.createdAt - 1 });
    await store.createKey(second);
    expect((await store.listKeys(org.id)).map((k) => k.id)).toEqual([second.id, key.id]);
  });

  it('rejects a key whose hash is already indexed and leaves the first key intact', async () => {
    const store = get();
    const org = orgRecord();
    await store.createOrg(org);
    const first = keyRecord(org.id);
    await store.createKey(first);
    const clash = keyRecord(org.id, { hash: first.hash, name: 'clash' });
    await expect(store.createKey(clash)).rejects.toThrow();
    expect(await store.getKey(org.id, clash.id)).toBeNull();
    expect(await store.getKeyByHash(first.hash)).toEqual(first);
    expect((await store.listKeys(org.id)).map((k) => k.id)).toEqual([first.id]);
  });

  it('updates only the allowed key fields and returns null for a key outside the org', async () => {
    const store = get();
    const org = orgRecord();
    await store.createOrg(org);
    const key = keyRecord(org.id);
    await store.createKey(key);
    const patch = { status: 'revoked', expiresAt: 123, budget: 42, rpm: 1, hash: 'x', teamId: 't' } as Partial<KeyRecord>;
    const updated = await store.updateKey(org.id, key.id, patch);
    const expected = { ...key, status: 'revoked', expiresAt: 123, budget: 42, rpm: 1 };
    expect(updated).toEqual(expected);
    expect(await store.getKeyByHash(key.hash)).toEqual(expected);
    expect(await store.updateKey(org.id, key.id, { expiresAt: null, name: 'renamed' })).toEqual({
      ...expected,
      expiresAt: null,
      name: 'renamed',
    });
    expect(await store.updateKey(uid('org'), key.id, { status: 'blocked' })).toBeNull();
    expect(await store.updateKey(org.id, uid('key'), { status: 'blocked' })).toBeNull();
  });
}
