/**
 * The key cache's side of invalidation: eviction by key hash, by team and by organization; a lookup in
 * flight when an invalidation arrives does not cache what it read; while the bus is down entries live
 * DEGRADED_KEY_CACHE_TTL_MS; the wire format is validated.
 */
import { describe, expect, it } from 'vitest';
import { keyRecord, newKeyValue } from '../../../src/keys/mint.js';
import { Authenticator, DEGRADED_KEY_CACHE_TTL_MS, hashKey } from '../../../src/pipeline/authenticate.js';
import type { IncomingRequest } from '../../../src/server/types.js';
import type { KeyRecord, OrgRecord, TeamRecord } from '../../../src/store/contract.js';
import { LocalInvalidationBus, parseInvalidation } from '../../../src/store/invalidation.js';

function req(value: string): IncomingRequest {
  return { method: 'POST', path: '/v1/chat/completions', query: '', headers: new Map([['authorization', `Bearer ${value}`]]), ip: '127.0.0.1', body: Buffer.alloc(0), startedAt: 0 };
}

const org = (id: string): OrgRecord => ({
  id,
  name: id,
  status: 'active',
  createdAt: 0,
  fallbacks: [],
  rpm: null,
  tpm: null,
  maxConcurrency: null,
  priceCeilingPerMTok: null,
});

/** A record store that counts key lookups (a lookup = a cache miss). */
function fakeStore() {
  const keys = new Map<string, KeyRecord>();
  const orgs = new Map<string, OrgRecord>([['o1', org('o1')], ['o2', org('o2')]]);
  const team: TeamRecord = { id: 't1', orgId: 'o1', name: 't', rpm: null, tpm: null, budget: null, createdAt: 0 };
  let gate: Promise<void> | null = null;
  const s = {
    lookups: 0,
    hold(p: Promise<void>) {
      gate = p;
    },
    add(orgId: string, teamId: string | null = null): string {
      const value = newKeyValue('sk-svc-');
      const k = keyRecord(orgId, 'k', value, { teamId });
      keys.set(k.hash, k);
      return value;
    },
    async getKeyByHash(hash: string) {
      s.lookups++;
      if (gate) await gate;
      return keys.get(hash) ?? null;
    },
    setOrgStatus(id: string, status: OrgRecord['status']) {
      orgs.set(id, { ...orgs.get(id)!, status });
    },
    getOrg: (id: string) => Promise.resolve(orgs.get(id) ?? null),
    getTeam: (_o: string, id: string) => Promise.resolve(id === team.id ? team : null),
    hit: () => Promise.resolve(1),
  };
  return s;
}

const ROUTE = '/v1/chat/completions';

describe('Authenticator invalidation', () => {
  it('evicts one key by hash, every key of a team, every key of an organization, and nothing else', async () => {
    const store = fakeStore();
    const auth = new Authenticator(store, 60_000);
    const [a, b, c, d] = [store.add('o1', 't1'), store.add('o1', 't1'), store.add('o1'), store.add('o2')];
    for (const v of [a, b, c, d]) await auth.authenticate(req(v), ROUTE);
    expect(auth.cached).toBe(4);
    auth.onInvalidate({ kind: 'key', hash: hashKey(a) });
    expect(auth.cached).toBe(3);
    auth.onInvalidate({ kind: 'team', orgId: 'o1', teamId: 't1' });
    expect(auth.cached).toBe(2); // b gone; c (no team) and d (other org) stay
    auth.onInvalidate({ kind: 'org', orgId: 'o1' });
    expect(auth.cached).toBe(1);
    const before = store.lookups;
    await auth.authenticate(req(d), ROUTE);
    expect(store.lookups).toBe(before); // o2's key is still served from the cache
  });

  it('a refused key is not cached: resuming its organization serves the very next request, before any invalidation', async () => {
    const store = fakeStore();
    const auth = new Authenticator(store, 60_000);
    const v = store.add('o1');
    store.setOrgStatus('o1', 'suspended');
    await expect(auth.authenticate(req(v), ROUTE)).rejects.toMatchObject({ status: 401, code: 'invalid_api_key', headers: { 'x-svc-auth-reason': 'key_blocked' } });
    expect(auth.cached).toBe(0);
    store.setOrgStatus('o1', 'active'); // no invalidation delivered (yet)
    await expect(auth.authenticate(req(v), ROUTE)).resolves.toMatchObject({ org: { id: 'o1', status: 'active' } });
    expect(auth.cached).toBe(1);
  });

  it('a lookup in flight when an invalidation arrives is not cached', async () => {
    const store = fakeStore();
    const auth = new Authenticator(store, 60_000);
    const v = store.add('o1');
    let open!: () => void;
    store.hold(new Promise((r) => (open = r)));
    const pending = auth.authenticate(req(v), ROUTE);
    auth.onInvalidate({ kind: 'org', orgId: 'o1' });
    open();
    await pending;
    expect(auth.cached).toBe(0);
  });

  it('while the bus is down entries live the short TTL; link changes clear the cache', async () => {
    const store = fakeStore();
    const bus = new LocalInvalidationBus();
    const auth = new Authenticator(store, 60_000);
    const stop = bus.subscribe(auth);
    const v = store.add('o1');
    await auth.authenticate(req(v), ROUTE);
    auth.onLink(false);
    expect(auth.cached).toBe(0);
    await auth.authenticate(req(v), ROUTE);
    await auth.authenticate(req(v), ROUTE);
    expect(store.lookups).toBe(2);
    await new Promise((r) => setTimeout(r, DEGRADED_KEY_CACHE_TTL_MS + 100));
    await auth.authenticate(req(v), ROUTE);
    expect(store.lookups).toBe(3); // expired after the short TTL
    auth.onLink(true);
    expect(auth.cached).toBe(0);
    await auth.authenticate(req(v), ROUTE);
    await new Promise((r) => setTimeout(r, DEGRADED_KEY_CACHE_TTL_MS + 100));
    await auth.authenticate(req(v), ROUTE);
    expect(store.lookups).toBe(4); // the normal (long) TTL again
    await bus.publish({ kind: 'key', hash: hashKey(v) });
    expect(auth.cached).toBe(0);
    await stop();
  });
});

describe('parseInvalidation', () => {
  it('accepts the three kinds and rejects anything malformed', () => {
    const h = 'a'.repeat(64);
    expect(parseInvalidation(JSON.stringify({ kind: 'key', hash: h }))).toEqual({ kind: 'key', hash: h });
    expect(parseInvalidation(JSON.stringify({ kind: 'org', orgId: 'o1' }))).toEqual({ kind: 'org', orgId: 'o1' });
    expect(parseInvalidation(JSON.stringify({ kind: 'team', orgId: 'o1', teamId: 't1' }))).toEqual({ kind: 'team', orgId: 'o1', teamId: 't1' });
    for (const bad of ['', 'null', '[]', '{"kind":"key","hash":"xyz"}', '{"kind":"org"}', '{"kind":"team","orgId":"o1"}', '{"kind":"all"}', '{"kind":"org","orgId":""}']) {
      expect(parseInvalidation(bad)).toBeNull();
    }
  });
});
