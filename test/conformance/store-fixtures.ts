/** Record builders for the store contract suite and the store concurrency tests. */
import { createHash, randomBytes } from 'node:crypto';
import type { KeyRecord, LimitScope, OrgRecord, SettlementEntry, Store, TeamRecord } from '../../src/store/contract.js';

export function uid(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function orgRecord(over: Partial<OrgRecord> = {}): OrgRecord {
  return {
    id: uid('org'),
    name: 'Acme',
    status: 'active',
    createdAt: 1_700_000_000_000,
    fallbacks: ['gpt-4o-mini', 'claude-3-5-haiku'],
    rpm: null,
    tpm: null,
    maxConcurrency: null,
    priceCeilingPerMTok: null,
    ...over,
  };
}

export function teamRecord(orgId: string, over: Partial<TeamRecord> = {}): TeamRecord {
  return { id: uid('team'), orgId, name: 'Research', rpm: null, tpm: null, budget: null, createdAt: 1_700_000_000_000, ...over };
}

export function keyRecord(orgId: string, over: Partial<KeyRecord> = {}): KeyRecord {
  const plaintext = `sk-svc-${randomBytes(16).toString('hex')}`;
  return {
    id: uid('key'),
    orgId,
    hash: sha256(plaintext),
    name: 'ci key',
    last4: plaintext.slice(-4),
    prefix: 'sk-svc-',
    teamId: null,
    status: 'active',
    createdAt: 1_700_000_000_000,
    expiresAt: null,
    allowedModels: null,
    allowedRoutes: null,
    allowedIps: null,
    budget: null,
    budgetWarnAt: null,
    rpm: null,
    tpm: null,
    maxConcurrency: null,
    neverCompress: false,
    createdBy: null,
    ...over,
  };
}

export function settlement(orgId: string, keyId: string, over: Partial<SettlementEntry> = {}): SettlementEntry {
  return {
    requestId: uid('req'),
    orgId,
    keyId,
    teamId: null,
    user: null,
    model: 'gpt-4o-mini',
    requestedModel: 'gpt-4o-mini',
    cost: 1_000,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    tokens: 15,
    tags: [],
    hadHold: false,
    scopes: [],
    status: 'ok',
    endpoint: '/v1/chat/completions',
    latencyMs: 12,
    at: Date.UTC(2025, 0, 15, 12),
    ...over,
  };
}

export function scope(source: LimitScope['source'], id: string, limits: Partial<LimitScope> = {}): LimitScope {
  return { source, id, rpm: null, tpm: null, maxConcurrency: null, ...limits };
}

/** An org with one active key; the common starting point. */
export async function orgWithKey(store: Store, keyOver: Partial<KeyRecord> = {}): Promise<{ orgId: string; key: KeyRecord }> {
  const org = orgRecord();
  await store.createOrg(org);
  const key = keyRecord(org.id, keyOver);
  await store.createKey(key);
  return { orgId: org.id, key };
}
