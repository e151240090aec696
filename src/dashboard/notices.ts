/**
 * Budget and low-balance notices by e-mail to an organization's Owners and org_admins (gateway-api.md,
 * Events > Other signals). One e-mail per threshold crossing: a marker per (scope, budget, threshold)
 * remembers what was sent, and a Store claim makes concurrent checks on several nodes send once.
 *
 * Thresholds: a key's `budgetWarnAt` (the same soft threshold that adds `x-svc-budget-warning`) and 100%;
 * a team's configured `teamWarnAt` and 100%; the organization balance falling under `lowBalanceNano`
 * (re-armed once the balance is back at or above it, e.g. after a top-up).
 */
import { plainText } from './validate.js';
import { formatUsd } from '../billing/money.js';
import { keyAlias } from '../keys/mint.js';
import type { Logger } from '../obs/logger.js';
import type { SettlementEntry, Store } from '../store/contract.js';
import type { NoticeOptions } from './config.js';
import { claim } from './kv-index.js';
import type { Mailer, MailMessage } from './smtp-client.js';
import type { UsersService } from './users-service.js';

export interface NoticeDeps {
  store: Store;
  users: UsersService;
  mailer: Mailer | null;
  options: NoticeOptions;
  log: Logger;
  serviceName: string;
  /** How long a claim stops other nodes from sending the same notice (and a failed send from retrying). */
  claimWindowMs?: number;
}

/** The highest threshold (fraction of `limit`) that `spent` has reached, or null. */
export function crossedThreshold(spent: number, limit: number, thresholds: readonly number[]): number | null {
  let best: number | null = null;
  for (const t of thresholds) if (t > 0 && spent >= limit * t && (best === null || t > best)) best = t;
  return best;
}

const pct = (t: number): string => `${Math.round(t * 100)}%`;

export class BudgetNotifier {
  constructor(private readonly deps: NoticeDeps) {}

  /** For the settlement side: checks every key, team and organization of a flushed batch. Never throws. */
  async afterSettlement(entries: readonly Pick<SettlementEntry, 'orgId' | 'keyId' | 'teamId'>[]): Promise<void> {
    const keys = new Set<string>();
    const teams = new Set<string>();
    const orgs = new Set<string>();
    for (const e of entries) {
      keys.add(`${e.orgId}\u0000${e.keyId}`);
      if (e.teamId !== null) teams.add(`${e.orgId}\u0000${e.teamId}`);
      orgs.add(e.orgId);
    }
    const split = (s: string): [string, string] => s.split('\u0000') as [string, string];
    const checks = [
      ...[...keys].map((k) => this.checkKey(...split(k))),
      ...[...teams].map((t) => this.checkTeam(...split(t))),
      ...[...orgs].map((o) => this.checkBalance(o)),
    ];
    await Promise.all(checks.map((p) => p.catch((e: unknown) => this.#warn('budget notice check failed', e))));
  }

  async checkKey(orgId: string, keyId: string): Promise<void> {
    const key = await this.deps.store.getKey(orgId, keyId);
    if (key === null || key.budget === null) return;
    const spent = await this.deps.store.scopeSpend(orgId, 'key', keyId);
    const t = crossedThreshold(spent, key.budget, [key.budgetWarnAt ?? 1, 1]);
    if (t === null) return;
    const label = `key ${plainText(key.name)} (${keyAlias(key)})`;
    await this.#once(orgId, `key:${keyId}:${key.budget}:${t}`, {
      subject: `Budget ${t >= 1 ? 'reached' : pct(t) + ' used'}: ${label}`,
      text: `The ${label} has spent $${formatUsd(spent)} of its $${formatUsd(key.budget)} budget (${pct(spent / key.budget)}).\n${
        t >= 1 ? 'Requests with this key are now refused until the budget is raised.' : 'Requests still run; responses carry x-svc-budget-warning.'
      }\n`,
    });
  }

  async checkTeam(orgId: string, teamId: string): Promise<void> {
    const team = await this.deps.store.getTeam(orgId, teamId);
    if (team === null || team.budget === null) return;
    const spent = await this.deps.store.scopeSpend(orgId, 'team', teamId);
    const t = crossedThreshold(spent, team.budget, [this.deps.options.teamWarnAt, 1]);
    if (t === null) return;
    await this.#once(orgId, `team:${teamId}:${team.budget}:${t}`, {
      subject: `Team budget ${t >= 1 ? 'reached' : pct(t) + ' used'}: ${plainText(team.name)}`,
      text: `Team ${plainText(team.name)} has spent $${formatUsd(spent)} of its $${formatUsd(team.budget)} budget (${pct(spent / team.budget)}).\n`,
    });
  }

  async checkBalance(orgId: string): Promise<void> {
    const floor = this.deps.options.lowBalanceNano;
    if (floor === null) return;
    const { balance } = await this.deps.store.getBalance(orgId);
    const marker = `lowbal:${orgId}`;
    if (balance >= floor) {
      await this.#rearm(marker);
      return;
    }
    await this.#once(orgId, marker, {
      subject: `Low credit balance: $${formatUsd(balance)}`,
      text: `The organization's credit balance is $${formatUsd(balance)}, under the $${formatUsd(floor)} notice level.\nRequests are refused with 402 once it cannot cover a request.\n`,
    });
  }

  /** Back above the line: the next fall under it is a new crossing, with a claim of its own. */
  async #rearm(marker: string): Promise<void> {
    const { store } = this.deps;
    const key = `notice:${marker}`;
    if ((await store.kvGet(key)) === null) return;
    await store.kvSet(`${key}:gen`, ((await store.kvGet<number>(`${key}:gen`)) ?? 0) + 1);
    await store.kvDel(key);
  }

  async #once(orgId: string, marker: string, msg: Omit<MailMessage, 'to'>): Promise<void> {
    const { store } = this.deps;
    const key = `notice:${marker}`;
    if ((await store.kvGet(key)) !== null) return;
    const gen = (await store.kvGet<number>(`${key}:gen`)) ?? 0;
    if (!(await claim(store, `${key}:${gen}`, this.deps.claimWindowMs ?? 60_000))) return;
    const to = await this.deps.users.adminEmails(orgId);
    const org = await store.getOrg(orgId);
    const subject = `[${this.deps.serviceName}] ${plainText(org?.name ?? orgId)}: ${msg.subject}`;
    if (this.deps.mailer === null || to.length === 0) {
      this.deps.log.warn('budget notice not e-mailed (no SMTP configured or no recipients)', { org_id: orgId, subject });
    } else {
      try {
        await this.deps.mailer.send({ to, subject, text: msg.text });
      } catch (e) {
        // No marker: a later check retries once the claim window has passed.
        this.#warn('budget notice e-mail failed', e);
        return;
      }
    }
    await store.kvSet(key, { at: Date.now() });
  }

  #warn(msg: string, e: unknown): void {
    this.deps.log.warn(msg, { error: e instanceof Error ? e.message : String(e) });
  }
}
