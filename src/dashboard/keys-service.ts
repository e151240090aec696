/**
 * Virtual key lifecycle, shared by the dashboard API and the operator CLI: create (value shown once),
 * list, update, revoke, rotate with a grace period, bulk import and bulk revoke. Every action emits its
 * event (gateway-api.md, Events) fire-and-forget; the Store keeps only the sha256 and the last 4 characters.
 */
import { GatewayError, invalid } from '../errors/gateway-error.js';
import { keyRecord, newKeyValue } from '../keys/mint.js';
import { hashKey } from '../pipeline/authenticate.js';
import type { KeyRecord, Store } from '../store/contract.js';
import { parseKeyInput, parseKeyPatch, type KeyInput } from './key-input.js';
import type { CacheInvalidator } from './cache-invalidation.js';
import { createdData, revokedData, rotatedData, type KeyEventEmitter } from './key-events.js';
import { objectWith, optNum } from './validate.js';

export const MAX_BULK = 500;
/** Longest rotation grace period (30 days). */
export const MAX_GRACE_HOURS = 720;

export interface CreatedKey {
  key: KeyRecord;
  /** The full value: returned to the caller once, never stored. */
  value: string;
  /** Bulk import of an existing value: the caller knows it, so it is not echoed back. */
  imported: boolean;
}

const notFound = (): GatewayError => new GatewayError('not_found', { message: 'Key not found in this organization' });

export class KeysService {
  constructor(
    private readonly store: Store,
    private readonly events: KeyEventEmitter,
    private readonly now: () => number,
    private readonly invalidate: CacheInvalidator,
  ) {}

  async #checkTeam(orgId: string, input: KeyInput): Promise<void> {
    if (input.teamId !== null && (await this.store.getTeam(orgId, input.teamId)) === null) {
      throw invalid('team_id is not a team of this organization', 'team_id');
    }
  }

  async #store(orgId: string, actor: string | null, input: KeyInput): Promise<CreatedKey> {
    const value = input.value ?? newKeyValue(input.prefix);
    const { value: _imported, prefix: _prefix, name, ...opts } = input;
    const key: KeyRecord = { ...keyRecord(orgId, name, value, { ...opts, createdBy: actor }), createdAt: this.now() };
    await this.store.createKey(key);
    return { key, value, imported: input.value !== null };
  }

  async create(orgId: string, actor: string | null, body: unknown): Promise<CreatedKey> {
    const input = parseKeyInput(body, this.now(), { allowValue: false });
    await this.#checkTeam(orgId, input);
    const created = await this.#store(orgId, actor, input);
    this.events.emit(orgId, 'key.created', createdData(created.key, actor, false));
    return created;
  }

  async list(orgId: string): Promise<KeyRecord[]> {
    return this.store.listKeys(orgId);
  }

  async get(orgId: string, keyId: string): Promise<KeyRecord> {
    const key = await this.store.getKey(orgId, keyId);
    if (key === null) throw notFound();
    return key;
  }

  async update(orgId: string, keyId: string, body: unknown): Promise<KeyRecord> {
    const patch = parseKeyPatch(body);
    const key = await this.store.updateKey(orgId, keyId, patch);
    if (key === null) throw notFound();
    await this.invalidate.key(key.hash);
    return key;
  }

  async #revokeOne(orgId: string, keyId: string): Promise<KeyRecord> {
    const key = await this.get(orgId, keyId);
    if (key.status === 'revoked') throw new GatewayError('conflict', { message: 'Key is already revoked.' });
    const updated = await this.store.updateKey(orgId, keyId, { status: 'revoked' });
    if (updated === null) throw notFound();
    await this.invalidate.key(updated.hash);
    return updated;
  }

  /** Immediate on every node: the inference side re-checks status in the Store at admission. */
  async revoke(orgId: string, actor: string | null, keyId: string): Promise<KeyRecord> {
    const key = await this.#revokeOne(orgId, keyId);
    this.events.emit(orgId, 'key.revoked', revokedData(key, actor, false));
    return key;
  }

  /**
   * A new key with the old key's policy; the old key stays usable until `grace_hours` from now (never
   * later than its own expiry). `old_key_expires_at` is null when that expiry could not be written.
   */
  async rotate(orgId: string, actor: string | null, keyId: string, body: unknown): Promise<CreatedKey & { old: KeyRecord; graceHours: number }> {
    const o = objectWith(body ?? {}, ['grace_hours']);
    const graceHours = optNum(o, 'grace_hours', { min: 0, max: MAX_GRACE_HOURS }) ?? 24;
    const old = await this.get(orgId, keyId);
    if (old.status !== 'active') throw new GatewayError('conflict', { message: `Only an active key can be rotated (this one is ${old.status}).` });
    const now = this.now();
    if (old.expiresAt !== null && old.expiresAt <= now) throw new GatewayError('conflict', { message: 'The key has already expired.' });
    const value = newKeyValue(old.prefix === 'sk-legacy-' ? 'sk-legacy-' : 'sk-svc-');
    const { id: _id, hash: _hash, last4: _last4, createdAt: _c, status: _s, orgId: _o, prefix: _p, name, ...policy } = old;
    const key: KeyRecord = { ...keyRecord(orgId, name, value, { ...policy, createdBy: actor }), createdAt: now };
    await this.store.createKey(key);
    const wanted = Math.min(old.expiresAt ?? Infinity, now + Math.round(graceHours * 3_600_000));
    let expiresAt: number | null = null;
    let oldAfter = old;
    try {
      const updated = await this.store.updateKey(orgId, keyId, { expiresAt: wanted });
      if (updated !== null) {
        expiresAt = wanted;
        oldAfter = updated;
      }
    } catch {
      expiresAt = null;
    }
    await this.invalidate.key(old.hash);
    this.events.emit(orgId, 'key.rotated', rotatedData(old, key, expiresAt, graceHours, actor));
    return { key, value, imported: false, old: oldAfter, graceHours };
  }

  /**
   * All rows are validated (and imported values checked for duplicates) before any key is stored, so a bad
   * row changes nothing. Each stored row emits `key.created` with `bulk_import: true`.
   */
  async bulkImport(orgId: string, actor: string | null, body: unknown): Promise<CreatedKey[]> {
    const o = objectWith(body, ['keys']);
    if (!Array.isArray(o.keys) || o.keys.length === 0 || o.keys.length > MAX_BULK) {
      throw invalid(`keys must be an array of 1 to ${MAX_BULK} key objects`, 'keys');
    }
    const now = this.now();
    const inputs = o.keys.map((row: unknown, i) => {
      try {
        return parseKeyInput(row, now, { allowValue: true });
      } catch (e) {
        if (e instanceof GatewayError) throw invalid(`keys[${i}]: ${e.message}`, `keys[${i}]${e.param === undefined ? '' : '.' + e.param}`);
        throw e;
      }
    });
    const seen = new Set<string>();
    for (const [i, input] of inputs.entries()) {
      await this.#checkTeam(orgId, input).catch(() => {
        throw invalid(`keys[${i}]: team_id is not a team of this organization`, `keys[${i}].team_id`);
      });
      if (input.value === null) continue;
      const hash = hashKey(input.value);
      if (seen.has(hash) || (await this.store.getKeyByHash(hash)) !== null) {
        throw new GatewayError('conflict', { message: `keys[${i}]: this key value already exists.`, param: `keys[${i}].value` });
      }
      seen.add(hash);
    }
    const out: CreatedKey[] = [];
    for (const input of inputs) {
      const created = await this.#store(orgId, actor, input);
      this.events.emit(orgId, 'key.created', createdData(created.key, actor, true));
      out.push(created);
    }
    return out;
  }

  /** Every id must be a key of the organization (404 otherwise, nothing revoked); already revoked ones are skipped. */
  async bulkRevoke(orgId: string, actor: string | null, body: unknown): Promise<{ revoked: KeyRecord[]; alreadyRevoked: string[] }> {
    const o = objectWith(body, ['ids']);
    const ids = o.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_BULK || !ids.every((x) => typeof x === 'string')) {
      throw invalid(`ids must be an array of 1 to ${MAX_BULK} key ids`, 'ids');
    }
    const unique = [...new Set(ids as string[])];
    const keys = await Promise.all(unique.map((id) => this.store.getKey(orgId, id)));
    const missing = unique.filter((_, i) => keys[i] === null);
    if (missing.length > 0) throw new GatewayError('not_found', { message: `Keys not found in this organization: ${missing.join(', ')}` });
    const revoked: KeyRecord[] = [];
    const alreadyRevoked: string[] = [];
    for (const key of keys) {
      if (key === null) continue;
      if (key.status === 'revoked') {
        alreadyRevoked.push(key.id);
        continue;
      }
      const updated = await this.store.updateKey(orgId, key.id, { status: 'revoked' });
      if (updated === null) continue;
      await this.invalidate.key(updated.hash);
      this.events.emit(orgId, 'key.revoked', revokedData(updated, actor, true));
      revoked.push(updated);
    }
    return { revoked, alreadyRevoked };
  }
}

