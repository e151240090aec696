/**
 * Records (orgs, teams, keys) are Redis hashes with one JSON-encoded value per field, so a patch is a plain
 * HSET of the changed fields (atomic, no read-modify-write) and admit.lua can read `status` alone.
 * Reply parsing lives here too: every script reply is checked before it is trusted.
 */
import type { BalanceView, SettlementEntry, SpendRow } from '../contract.js';
import { spendTargets } from '../shared.js';

export function toFields(record: object): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out.push(k, JSON.stringify(v));
  return out;
}

export function fromHash<T>(hash: Record<string, string>): T | null {
  const entries = Object.entries(hash);
  if (entries.length === 0) return null;
  return Object.fromEntries(entries.map(([k, v]) => [k, JSON.parse(v) as unknown])) as T;
}

/** HGETALL as returned inside a script reply: a flat [field, value, ...] array. */
export function fromFlat<T>(reply: unknown): T | null {
  if (reply === null) return null;
  const flat = strings(reply);
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i] as string] = flat[i + 1] as string;
  return fromHash<T>(hash);
}

/** Spend rows from one `sp:<group>` hash (fields c:/r:/i:/o: + group value). */
export function spendRows(hash: Record<string, string>): SpendRow[] {
  const rows = new Map<string, SpendRow>();
  for (const [field, raw] of Object.entries(hash)) {
    const group = field.slice(2);
    const row = rows.get(group) ?? { group, cost: 0, requests: 0, inputTokens: 0, outputTokens: 0 };
    const n = Number(raw);
    switch (field.slice(0, 2)) {
      case 'c:':
        row.cost = n;
        break;
      case 'r:':
        row.requests = n;
        break;
      case 'i:':
        row.inputTokens = n;
        break;
      case 'o:':
        row.outputTokens = n;
        break;
      default:
        continue;
    }
    rows.set(group, row);
  }
  return [...rows.values()];
}

export class ReplyShapeError extends Error {
  constructor(what: string, reply: unknown) {
    super(`unexpected redis reply for ${what}: ${JSON.stringify(reply)}`);
    this.name = 'ReplyShapeError';
  }
}

export function array(reply: unknown, what = 'script'): unknown[] {
  if (!Array.isArray(reply)) throw new ReplyShapeError(what, reply);
  return reply as unknown[];
}

export function strings(reply: unknown, what = 'script'): string[] {
  const a = array(reply, what);
  if (!a.every((x): x is string => typeof x === 'string')) throw new ReplyShapeError(what, reply);
  return a as string[];
}

export function int(reply: unknown, what = 'script'): number {
  if (typeof reply === 'number' && Number.isFinite(reply)) return reply;
  if (typeof reply === 'string' && /^-?\d+$/.test(reply)) return Number(reply);
  throw new ReplyShapeError(what, reply);
}

export function str(reply: unknown, what = 'script'): string {
  if (typeof reply !== 'string') throw new ReplyShapeError(what, reply);
  return reply;
}

/** What settle.lua needs of an entry; spend groups are computed here so both stores share one rule. */
export function settleInstruction(e: SettlementEntry): object {
  return {
    rid: e.requestId,
    cost: e.cost,
    it: e.inputTokens,
    ot: e.outputTokens,
    tok: e.tokens,
    sp: spendTargets(e),
    sc: e.scopes.map((s) => [s.source, s.id]),
  };
}

export function balanceView(reply: unknown): BalanceView {
  const [balance, held] = array(reply);
  return { balance: int(balance), held: int(held) };
}
