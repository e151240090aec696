/**
 * The Store on Redis. Each atomic step is one Lua script (lua/*.lua, see each header for its keys); plain
 * reads are single commands. Every call is bounded by the connection's command timeout, and connection or
 * timeout failures surface as StoreUnavailableError so the caller answers 503.
 */
import type {
  AdmitHoldResult,
  AdmitRequest,
  AdmitResult,
  BalanceView,
  HoldRequest,
  HoldResult,
  KeyRecord,
  KeyStatus,
  LedgerEntry,
  LimitScope,
  OrgRecord,
  SettlementEntry,
  SpendGroup,
  SpendRow,
  Store,
  TeamRecord,
} from '../contract.js';
import type { NanoUsd } from '../../billing/money.js';
import {
  assertCapped,
  assertInt,
  assertTtl,
  CAP_TRIM_PER_WRITE,
  getOr,
  KEY_PATCH_FIELDS,
  kvJson,
  LEDGER_CAP,
  ledgerLimit,
  ORG_PATCH_FIELDS,
  pickPatch,
  sortByCreated,
  sortRows,
  validateEntry,
  type KeyPatch,
  type OrgPatch,
} from '../shared.js';
import { closeRedis, connectRedis, pingRedis, toStoreError, type RedisClient, type RedisConnectOptions } from './client.js';
import { K, orgPrefix } from './keys.js';
import { array, balanceView, fromFlat, fromHash, int, settleInstruction, spendRows, str, strings, toFields } from './records.js';
import { loadScripts, type ScriptArg, type ScriptName, type Scripts } from './scripts.js';
import { RedisInvalidationBus, type InvalidationBus } from '../invalidation.js';

const LEDGER_PAGE = 1_000;

function admitArgs(req: AdmitRequest): ScriptArg[] {
  assertInt('tokens', req.tokens, 0);
  const args: ScriptArg[] = [req.keyId, req.requestId, req.now, req.tokens, req.leaseTtlMs, req.scopes.length];
  for (const s of req.scopes) args.push(s.source, s.id, s.rpm ?? '', s.tpm ?? '', s.maxConcurrency ?? '');
  return args;
}

function admitRefusal(reply: unknown[]): Extract<AdmitResult, { ok: false }> {
  if (reply[1] === 'key_status') return { ok: false, kind: 'key_status', status: str(reply[2]) as KeyStatus };
  const kind = str(reply[1]) as 'rpm' | 'tpm' | 'concurrency';
  return { ok: false, kind, source: str(reply[2]) as LimitScope['source'], retryAfterMs: int(reply[3]) };
}

export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly #redis: RedisClient;
  readonly #scripts: Scripts;
  readonly #ledgerCap: number;
  #bus: RedisInvalidationBus | null = null;

  private constructor(redis: RedisClient, scripts: Scripts, ledgerCap: number) {
    this.#redis = redis;
    this.#scripts = scripts;
    this.#ledgerCap = ledgerCap;
  }

  /** Connects (bounded by connectTimeoutMs) and loads every script once, which also checks its syntax. */
  static async connect(opts: RedisConnectOptions): Promise<RedisStore> {
    const scripts = loadScripts();
    const redis = await connectRedis(opts);
    try {
      for (const s of Object.values(scripts)) {
        const sha = str(await redis.script('LOAD', s.source), 'SCRIPT LOAD');
        if (sha !== s.sha) throw new Error(`script ${s.name}: redis sha ${sha} differs from ${s.sha}`);
      }
    } catch (err) {
      redis.disconnect();
      throw toStoreError(err);
    }
    return new RedisStore(redis, scripts, opts.ledgerCap ?? LEDGER_CAP);
  }

  // --- organizations, teams -----------------------------------------------------------------------------
  async createOrg(org: OrgRecord): Promise<void> {
    // Index first: an id without a record is skipped by listOrgs, a record without an index entry would hide.
    await this.#do(() => this.#redis.sadd(K.orgIndex, org.id));
    await this.#create(K.org(org.id), null, org.id, org, `org ${org.id}`);
  }

  async getOrg(orgId: string): Promise<OrgRecord | null> {
    return this.#record<OrgRecord>(K.org(orgId));
  }

  async updateOrg(orgId: string, patch: OrgPatch): Promise<OrgRecord | null> {
    return this.#patch<OrgRecord>(K.org(orgId), pickPatch(patch, ORG_PATCH_FIELDS));
  }

  async listOrgs(): Promise<OrgRecord[]> {
    const ids = await this.#do(() => this.#redis.smembers(K.orgIndex));
    return this.#records<OrgRecord>(ids.map(K.org));
  }

  async createTeam(team: TeamRecord): Promise<void> {
    const index = K.teamIndex(team.orgId);
    await this.#create(K.team(team.orgId, team.id), index, team.id, team, `team ${team.id}`);
  }

  async getTeam(orgId: string, teamId: string): Promise<TeamRecord | null> {
    return this.#record<TeamRecord>(K.team(orgId, teamId));
  }

  async listTeams(orgId: string): Promise<TeamRecord[]> {
    const ids = await this.#do(() => this.#redis.smembers(K.teamIndex(orgId)));
    return this.#records<TeamRecord>(ids.map((id) => K.team(orgId, id)));
  }

  // --- keys ---------------------------------------------------------------------------------------------
  async createKey(key: KeyRecord): Promise<void> {
    const indexKey = K.keyHash(key.hash);
    const claimed = await this.#do(() => this.#redis.set(indexKey, JSON.stringify([key.orgId, key.id]), 'NX'));
    if (claimed === null) throw new Error('duplicate key hash');
    try {
      await this.#create(K.key(key.orgId, key.id), K.keyIndex(key.orgId), key.id, key, `key ${key.id}`);
    } catch (err) {
      await this.#redis.del(indexKey).catch(() => undefined);
      throw err;
    }
  }

  async getKeyByHash(hash: string): Promise<KeyRecord | null> {
    const ref = await this.#do(() => this.#redis.get(K.keyHash(hash)));
    if (ref === null) return null;
    const [orgId, keyId] = JSON.parse(ref) as [string, string];
    return this.getKey(orgId, keyId);
  }

  async getKey(orgId: string, keyId: string): Promise<KeyRecord | null> {
    return this.#record<KeyRecord>(K.key(orgId, keyId));
  }

  async listKeys(orgId: string): Promise<KeyRecord[]> {
    const ids = await this.#do(() => this.#redis.smembers(K.keyIndex(orgId)));
    return this.#records<KeyRecord>(ids.map((id) => K.key(orgId, id)));
  }

  async updateKey(orgId: string, keyId: string, patch: KeyPatch): Promise<KeyRecord | null> {
    return this.#patch<KeyRecord>(K.key(orgId, keyId), pickPatch(patch, KEY_PATCH_FIELDS));
  }

  // --- credits ------------------------------------------------------------------------------------------
  async topUp(orgId: string, amount: NanoUsd, idempotencyKey: string): Promise<BalanceView> {
    assertInt('amount', amount, 0);
    return balanceView(await this.#run('top-up', orgId, [amount, idempotencyKey]));
  }

  async getBalance(orgId: string): Promise<BalanceView> {
    return balanceView(await this.#run('balance', orgId, [Date.now()]));
  }

  // --- admission ----------------------------------------------------------------------------------------
  async admit(req: AdmitRequest): Promise<AdmitResult> {
    const reply = array(await this.#run('admit', req.orgId, admitArgs(req)));
    return reply[0] === 1 ? { ok: true } : admitRefusal(reply);
  }

  /** One round trip for admission and hold (lua/admit-hold.lua). */
  async admitAndHold(req: AdmitRequest, hold: Pick<HoldRequest, 'amount' | 'ttlMs' | 'budgets'>): Promise<AdmitHoldResult> {
    assertInt('amount', hold.amount, 0);
    assertTtl('ttlMs', hold.ttlMs);
    const args = admitArgs(req);
    args.push(hold.amount, Math.ceil(hold.ttlMs));
    for (const b of hold.budgets) args.push(b.source, b.id, b.limit);
    const reply = array(await this.#run('admit-hold', req.orgId, args));
    if (reply[0] !== 1) return { admit: admitRefusal(reply), hold: null };
    if (reply[1] === 1) return { admit: { ok: true }, hold: { ok: true, available: int(reply[2]) } };
    return { admit: { ok: true }, hold: { ok: false, source: str(reply[2]) as 'plan' | 'budget', available: int(reply[3]) } };
  }

  async releaseLeases(orgId: string, requestId: string, scopes: Pick<LimitScope, 'source' | 'id'>[]): Promise<void> {
    await this.#run('release-leases', orgId, [requestId, ...scopes.flatMap((s) => [s.source, s.id])]);
  }

  // --- holds --------------------------------------------------------------------------------------------
  async hold(req: HoldRequest): Promise<HoldResult> {
    assertInt('amount', req.amount, 0);
    assertTtl('ttlMs', req.ttlMs);
    const args: ScriptArg[] = [req.requestId, req.amount, req.now, Math.ceil(req.ttlMs)];
    for (const b of req.budgets) args.push(b.source, b.id, b.limit);
    const reply = array(await this.#run('hold', req.orgId, args));
    if (reply[0] === 1) return { ok: true, available: int(reply[1]) };
    return { ok: false, source: str(reply[1]) as 'plan' | 'budget', available: int(reply[2]) };
  }

  async releaseHold(orgId: string, requestId: string): Promise<void> {
    await this.#run('release-hold', orgId, [requestId]);
  }

  // --- settlement ---------------------------------------------------------------------------------------
  async settle(entries: SettlementEntry[]): Promise<string[]> {
    entries.forEach(validateEntry);
    const byOrg = new Map<string, SettlementEntry[]>();
    for (const e of entries) getOr(byOrg, e.orgId, () => []).push(e);
    const applied = new Set<string>();
    await Promise.all(
      [...byOrg].map(async ([orgId, batch]) => {
        const args: ScriptArg[] = [this.#ledgerCap];
        for (const e of batch) args.push(JSON.stringify(settleInstruction(e)), JSON.stringify(e));
        for (const rid of strings(await this.#run('settle', orgId, args))) applied.add(`${orgId}\u0000${rid}`);
      }),
    );
    return entries.filter((e) => applied.delete(`${e.orgId}\u0000${e.requestId}`)).map((e) => e.requestId);
  }

  async listLedger(orgId: string, opts?: { limit?: number; sinceMs?: number }): Promise<LedgerEntry[]> {
    const limit = ledgerLimit(opts, this.#ledgerCap);
    const since = opts?.sinceMs ?? Number.NEGATIVE_INFINITY;
    const out: LedgerEntry[] = [];
    for (let start = 0; out.length < limit && start < this.#ledgerCap; start += LEDGER_PAGE) {
      const page = await this.#do(() => this.#redis.lrange(K.ledger(orgId), start, start + LEDGER_PAGE - 1));
      const jsons = page.length === 0 ? [] : await this.#do(() => this.#redis.hmget(K.ledgerIndex(orgId), ...page));
      for (const json of jsons) {
        const e = json === null ? null : (JSON.parse(json) as LedgerEntry);
        if (e !== null && e.at >= since && out.length < limit) out.push(e);
      }
      if (page.length < LEDGER_PAGE) break;
    }
    return out;
  }

  async getLedgerEntry(orgId: string, requestId: string): Promise<LedgerEntry | null> {
    const json = await this.#do(() => this.#redis.hget(K.ledgerIndex(orgId), requestId));
    return json === null ? null : (JSON.parse(json) as LedgerEntry);
  }

  async spend(orgId: string, group: SpendGroup): Promise<SpendRow[]> {
    return sortRows(spendRows(await this.#do(() => this.#redis.hgetall(K.spend(orgId, group)))));
  }

  async scopeSpend(orgId: string, source: 'key' | 'team', id: string): Promise<NanoUsd> {
    return Number((await this.#do(() => this.#redis.hget(K.spend(orgId, source), `c:${id}`))) ?? 0);
  }

  // --- generic small state ------------------------------------------------------------------------------
  async kvGet<T>(key: string): Promise<T | null> {
    const json = await this.#do(() => this.#redis.get(K.kv(key)));
    return json === null ? null : (JSON.parse(json) as T);
  }

  async kvSet<T>(key: string, value: T, ttlMs?: number): Promise<void> {
    const json = kvJson(key, value);
    if (ttlMs === undefined) {
      await this.#do(() => this.#redis.set(K.kv(key), json));
    } else {
      assertTtl('ttlMs', ttlMs);
      await this.#do(() => this.#redis.set(K.kv(key), json, 'PX', Math.ceil(ttlMs)));
    }
  }

  async kvSetCapped<T>(key: string, value: T, ttlMs: number, group: string, cap: number): Promise<void> {
    assertCapped(ttlMs, cap);
    const json = kvJson(key, value);
    await this.#do(() => this.#scripts['kv-set-capped'].run(this.#redis, [K.kv(key), K.kvGroup(group)], [json, Math.ceil(ttlMs), cap, CAP_TRIM_PER_WRITE]));
  }

  async kvDel(key: string): Promise<void> {
    await this.#do(() => this.#redis.del(K.kv(key)));
  }

  // Plain SADD / SREM / SMEMBERS: each one command, atomic on the server.
  async setAdd(key: string, member: string): Promise<void> {
    await this.#do(() => this.#redis.sadd(K.set(key), member));
  }

  async setRemove(key: string, member: string): Promise<void> {
    await this.#do(() => this.#redis.srem(K.set(key), member));
  }

  async setRemoveKeeping(key: string, member: string, keep: number): Promise<'removed' | 'absent' | 'refused'> {
    const r = int(await this.#do(() => this.#scripts['set-remove-keeping'].run(this.#redis, [K.set(key)], [member, keep])));
    return r === 1 ? 'removed' : r === 0 ? 'absent' : 'refused';
  }

  async setMembers(key: string): Promise<string[]> {
    return (await this.#do(() => this.#redis.smembers(K.set(key)))).sort();
  }

  async hit(key: string, windowMs: number): Promise<number> {
    assertTtl('windowMs', windowMs);
    const now = Date.now();
    const bucket = Math.floor(now / windowMs);
    const ttl = Math.ceil((bucket + 1) * windowMs - now) + 1_000;
    return int(await this.#do(() => this.#scripts.hit.run(this.#redis, [K.hit(key, bucket)], [ttl])));
  }

  async ping(timeoutMs: number): Promise<boolean> {
    return pingRedis(this.#redis, timeoutMs);
  }

  /** Key-cache invalidation over pub/sub (publish on this connection; each subscriber opens its own). */
  invalidationBus(): InvalidationBus {
    return (this.#bus ??= new RedisInvalidationBus(this.#redis));
  }

  async close(): Promise<void> {
    await closeRedis(this.#redis, 1_000);
  }

  // --- internals ----------------------------------------------------------------------------------------
  async #do<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw toStoreError(err);
    }
  }

  /** Runs an org-scoped script: KEYS[1] is the org's hash-tagged prefix. */
  #run(name: ScriptName, orgId: string, args: ScriptArg[]): Promise<unknown> {
    return this.#do(() => this.#scripts[name].run(this.#redis, [orgPrefix(orgId)], args));
  }

  async #create(key: string, index: string | null, id: string, record: object, what: string): Promise<void> {
    const keys = index === null ? [key] : [key, index];
    const created = int(await this.#do(() => this.#scripts['create-record'].run(this.#redis, keys, [id, ...toFields(record)])));
    if (created === 0) throw new Error(`${what} already exists`);
  }

  async #patch<T>(key: string, patch: object): Promise<T | null> {
    const reply = await this.#do(() => this.#scripts['patch-record'].run(this.#redis, [key], toFields(patch)));
    return fromFlat<T>(reply);
  }

  async #record<T>(key: string): Promise<T | null> {
    return fromHash<T>(await this.#do(() => this.#redis.hgetall(key)));
  }

  async #records<T extends { createdAt: number; id: string }>(keys: string[]): Promise<T[]> {
    const found: (T | null)[] = await Promise.all(keys.map((k) => this.#record<T>(k)));
    return sortByCreated(found.filter((r): r is T => r !== null));
  }
}
