/**
 * Organization credit, teams with budgets, and spend reports from the settled ledger (shared by the
 * dashboard API and the CLI). Money is integer nano-USD inside, decimal USD strings on the wire.
 */
import { randomUUID } from 'node:crypto';
import { formatUsd, usdToNano } from '../billing/money.js';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import { keyAlias } from '../keys/mint.js';
import type { BalanceView, SpendGroup, Store, TeamRecord } from '../store/contract.js';
import type { BudgetNotifier } from './notices.js';
import { name, objectWith, optNum, str } from './validate.js';

/** Limits: minimum credit top-up $5. */
export const MIN_TOPUP_USD = 5;
export const MAX_TOPUP_USD = 1_000_000;
export const SPEND_GROUPS = ['key', 'model', 'tag', 'day'] as const;
export type SpendBy = (typeof SPEND_GROUPS)[number];

export interface SpendReportRow {
  group: string;
  /** For `by=key`: the key's display alias and name, so the report never needs the key id decoded. */
  key_alias?: string;
  key_name?: string;
  cost_usd: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
}

export class CreditsService {
  constructor(
    private readonly store: Store,
    private readonly notices: BudgetNotifier,
    private readonly now: () => number,
  ) {}

  async #requireOrg(orgId: string): Promise<void> {
    if ((await this.store.getOrg(orgId)) === null) throw new GatewayError('not_found', { message: 'Organization not found.' });
  }

  async balance(orgId: string): Promise<BalanceView> {
    await this.#requireOrg(orgId);
    return this.store.getBalance(orgId);
  }

  /**
   * Adds credit once per idempotency key (a retried request with the same key changes nothing). No payment
   * processor is wired here: the caller is trusted (Owner on the dashboard, the operator on the CLI).
   */
  async topUp(orgId: string, body: unknown): Promise<{ balance: BalanceView; amount: number }> {
    const o = objectWith(body, ['amount_usd', 'idempotency_key']);
    const usd = optNum(o, 'amount_usd', { min: MIN_TOPUP_USD, max: MAX_TOPUP_USD });
    if (usd === null) throw invalid(`amount_usd is required (minimum $${MIN_TOPUP_USD})`, 'amount_usd');
    const idem = str(o, 'idempotency_key', { max: 200 });
    await this.#requireOrg(orgId);
    const amount = usdToNano(usd);
    const balance = await this.store.topUp(orgId, amount, `topup:${idem}`);
    await this.notices.checkBalance(orgId);
    return { balance, amount };
  }

  async createTeam(orgId: string, body: unknown): Promise<TeamRecord> {
    const o = objectWith(body, ['name', 'budget_usd', 'rpm', 'tpm']);
    const budget = optNum(o, 'budget_usd', { min: 0, max: 10_000_000 });
    const team: TeamRecord = {
      id: randomUUID(),
      orgId,
      name: name(o, 'name', { max: 200 }),
      budget: budget === null ? null : usdToNano(budget),
      rpm: optNum(o, 'rpm', { min: 1, max: 1_000_000_000, int: true }),
      tpm: optNum(o, 'tpm', { min: 1, max: 1_000_000_000, int: true }),
      createdAt: this.now(),
    };
    await this.#requireOrg(orgId);
    await this.store.createTeam(team);
    return team;
  }

  async teams(orgId: string): Promise<{ team: TeamRecord; spend: number }[]> {
    const [teams, rows] = await Promise.all([this.store.listTeams(orgId), this.store.spend(orgId, 'team')]);
    const spent = new Map(rows.map((r) => [r.group, r.cost]));
    return teams.map((team) => ({ team, spend: spent.get(team.id) ?? 0 }));
  }

  /** Per-key spend totals (for key listings). */
  async keySpend(orgId: string): Promise<Map<string, number>> {
    return new Map((await this.store.spend(orgId, 'key')).map((r) => [r.group, r.cost]));
  }

  async spend(orgId: string, by: unknown): Promise<SpendReportRow[]> {
    if (typeof by !== 'string' || !(SPEND_GROUPS as readonly string[]).includes(by)) {
      throw invalid(`by must be one of ${SPEND_GROUPS.join(', ')}`, 'by');
    }
    const rows = await this.store.spend(orgId, by as SpendGroup);
    const keys = by === 'key' ? new Map((await this.store.listKeys(orgId)).map((k) => [k.id, k])) : null;
    return rows.map((r) => {
      const out: SpendReportRow = {
        group: r.group,
        cost_usd: formatUsd(r.cost),
        requests: r.requests,
        input_tokens: r.inputTokens,
        output_tokens: r.outputTokens,
      };
      const key = keys?.get(r.group);
      if (key !== undefined) {
        out.key_alias = keyAlias(key);
        out.key_name = key.name;
      }
      return out;
    });
  }
}
