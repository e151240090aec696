import { randomBytes, randomUUID } from 'node:crypto';
import { hashKey } from '../pipeline/authenticate.js';
import type { KeyRecord } from '../store/contract.js';

export type KeyPrefix = 'sk-svc-' | 'sk-legacy-';

export type KeyOptions = Partial<
  Pick<
    KeyRecord,
    | 'teamId'
    | 'expiresAt'
    | 'allowedModels'
    | 'allowedRoutes'
    | 'allowedIps'
    | 'budget'
    | 'budgetWarnAt'
    | 'rpm'
    | 'tpm'
    | 'maxConcurrency'
    | 'neverCompress'
    | 'createdBy'
  >
>;

/** A fresh random key value: prefix + 40 base62-ish characters (240 bits of entropy). */
export function newKeyValue(prefix: KeyPrefix = 'sk-svc-'): string {
  return prefix + randomBytes(30).toString('base64url');
}

/**
 * Builds the stored record of a key. Only the sha256 hash and the last 4 characters are kept; the
 * plaintext is returned to the caller once and never stored.
 */
export function keyRecord(orgId: string, name: string, value: string, opts: KeyOptions = {}): KeyRecord {
  const prefix: KeyPrefix = value.startsWith('sk-legacy-') ? 'sk-legacy-' : 'sk-svc-';
  return {
    id: randomUUID(),
    orgId,
    hash: hashKey(value),
    name,
    last4: value.slice(-4),
    prefix,
    teamId: opts.teamId ?? null,
    status: 'active',
    createdAt: Date.now(),
    expiresAt: opts.expiresAt ?? null,
    allowedModels: opts.allowedModels ?? null,
    allowedRoutes: opts.allowedRoutes ?? null,
    allowedIps: opts.allowedIps ?? null,
    budget: opts.budget ?? null,
    budgetWarnAt: opts.budgetWarnAt ?? null,
    rpm: opts.rpm ?? null,
    tpm: opts.tpm ?? null,
    maxConcurrency: opts.maxConcurrency ?? null,
    neverCompress: opts.neverCompress ?? false,
    createdBy: opts.createdBy ?? null,
  };
}

export function keyAlias(k: Pick<KeyRecord, 'last4'>): string {
  return `sk-...${k.last4}`;
}
