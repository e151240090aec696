/**
 * Wire views of dashboard records. A key view never carries the value or its hash: after creation a key is
 * shown by name, alias `sk-...<last4>` and policy only (gateway-api.md, Virtual key).
 */
import { formatUsd, type NanoUsd } from '../billing/money.js';
import { keyAlias } from '../keys/mint.js';
import type { BalanceView, KeyRecord, TeamRecord } from '../store/contract.js';
import { iso } from './validate.js';

export interface KeyView {
  id: string;
  name: string;
  alias: string;
  key_prefix: string;
  team_id: string | null;
  status: KeyRecord['status'];
  expired: boolean;
  created_at: string;
  expires_at: string | null;
  created_by: string | null;
  budget_usd: string | null;
  budget_warn_at: number | null;
  spend_usd: string;
  rpm: number | null;
  tpm: number | null;
  max_concurrency: number | null;
  allowed_models: string[] | null;
  allowed_routes: string[] | null;
  allowed_ips: string[] | null;
  never_compress: boolean;
}

export function keyView(k: KeyRecord, spend: NanoUsd, now: number): KeyView {
  return {
    id: k.id,
    name: k.name,
    alias: keyAlias(k),
    key_prefix: k.prefix,
    team_id: k.teamId,
    status: k.status,
    expired: k.expiresAt !== null && k.expiresAt <= now,
    created_at: new Date(k.createdAt).toISOString(),
    expires_at: iso(k.expiresAt),
    created_by: k.createdBy,
    budget_usd: k.budget === null ? null : formatUsd(k.budget),
    budget_warn_at: k.budgetWarnAt,
    spend_usd: formatUsd(spend),
    rpm: k.rpm,
    tpm: k.tpm,
    max_concurrency: k.maxConcurrency,
    allowed_models: k.allowedModels,
    allowed_routes: k.allowedRoutes,
    allowed_ips: k.allowedIps,
    never_compress: k.neverCompress,
  };
}

export function teamView(t: TeamRecord, spend: NanoUsd): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    budget_usd: t.budget === null ? null : formatUsd(t.budget),
    spend_usd: formatUsd(spend),
    rpm: t.rpm,
    tpm: t.tpm,
    created_at: new Date(t.createdAt).toISOString(),
  };
}

export function balanceView(b: BalanceView): { balance_usd: string; held_usd: string; available_usd: string } {
  return { balance_usd: formatUsd(b.balance), held_usd: formatUsd(b.held), available_usd: formatUsd(b.balance - b.held) };
}
