/**
 * Everything the memory store holds, and its conversion to and from the snapshot. Only the durable part
 * (records, balances, top-up keys, spend, ledger, kv without TTL) is written; holds, windows and leases are
 * rebuilt empty on start.
 */
import type { KeyRecord, OrgRecord, TeamRecord } from '../contract.js';
import { getOr } from '../shared.js';
import { OrgCredit } from './holds.js';
import { KvSpace } from './kv.js';
import { OrgBook } from './ledger.js';
import { Limiter } from './limiter.js';
import { SNAPSHOT_VERSION, snapshotPackr, unpackEntries, type SnapshotData } from './snapshot.js';

export class MemoryState {
  readonly orgs = new Map<string, OrgRecord>();
  readonly teams = new Map<string, Map<string, TeamRecord>>();
  readonly keys = new Map<string, Map<string, KeyRecord>>();
  readonly keyByHash = new Map<string, { orgId: string; keyId: string }>();
  readonly credit = new Map<string, OrgCredit>();
  readonly books = new Map<string, OrgBook>();
  readonly limiter = new Limiter();
  readonly kv = new KvSpace();
  readonly ledgerCap: number;

  constructor(ledgerCap: number) {
    this.ledgerCap = ledgerCap;
  }

  teamsOf(orgId: string): Map<string, TeamRecord> {
    return getOr(this.teams, orgId, () => new Map());
  }

  keysOf(orgId: string): Map<string, KeyRecord> {
    return getOr(this.keys, orgId, () => new Map());
  }

  creditOf(orgId: string): OrgCredit {
    return getOr(this.credit, orgId, () => new OrgCredit());
  }

  bookOf(orgId: string): OrgBook {
    return getOr(this.books, orgId, () => new OrgBook(this.ledgerCap));
  }

  toSnapshot(): SnapshotData {
    const data: SnapshotData = {
      v: SNAPSHOT_VERSION,
      orgs: [...this.orgs.values()],
      teams: [...this.teams.values()].flatMap((m) => [...m.values()]),
      keys: [...this.keys.values()].flatMap((m) => [...m.values()]),
      credits: [...this.credit].map(([orgId, c]) => ({ orgId, balance: c.balance, topUps: [...c.topUps] })),
      spend: [],
      ledger: [],
      kv: this.kv.persistent(),
    };
    for (const [orgId, book] of this.books) {
      for (const [group, byValue] of book.spend) {
        for (const [value, counter] of byValue) data.spend.push({ orgId, group, value, counter });
      }
      data.ledger.push({ orgId, ...book.packChunks(snapshotPackr) });
    }
    return data;
  }

  restore(data: SnapshotData): void {
    for (const org of data.orgs) this.orgs.set(org.id, org);
    for (const team of data.teams) this.teamsOf(team.orgId).set(team.id, team);
    for (const key of data.keys) {
      this.keysOf(key.orgId).set(key.id, key);
      this.keyByHash.set(key.hash, { orgId: key.orgId, keyId: key.id });
    }
    for (const c of data.credits) {
      const credit = this.creditOf(c.orgId);
      credit.balance = c.balance;
      for (const k of c.topUps) credit.topUps.add(k);
    }
    for (const s of data.spend) this.bookOf(s.orgId).restoreCounter(s.group, s.value, s.counter);
    for (const l of data.ledger) {
      const book = this.bookOf(l.orgId);
      l.chunks.forEach((chunk, i) => {
        for (const e of unpackEntries(chunk).slice(i === 0 ? l.trimmed : 0)) book.append(e);
      });
      book.trim();
    }
    this.kv.restore(data.kv);
  }

  /** Periodic cleanup of expired state nobody touched again (Redis does this with key TTLs). */
  sweep(now: number): void {
    this.kv.sweep(now);
    this.limiter.sweep(now);
    for (const c of this.credit.values()) c.purge(now);
  }
}
