/**
 * Dashboard settings. Until the lead folds them into src/config/schema.ts, `dashboardOptionsFromEnv`
 * reads them from the environment with the same names the schema will use.
 */
import type { SmtpConfig } from './smtp-client.js';

export interface NoticeOptions {
  /** A balance under this (nano-USD) sends one low-balance e-mail per crossing; null disables. */
  lowBalanceNano: number | null;
  /** Fraction of a team budget at which the soft-threshold e-mail goes out (teams have no own setting). */
  teamWarnAt: number;
}

export interface BootstrapOwner {
  email: string;
  password: string;
  orgName: string;
}

export interface DashboardOptions {
  host: string;
  port: number;
  /** The dashboard's own origin (`https://dash.example.com`); Origin/Referer of writes must match it. */
  origin: string;
  /** Secure cookie flag; off only for plain-HTTP local development. */
  secureCookies: boolean;
  sessionTtlMs?: number;
  maxBodyBytes?: number;
  /** Webhook delivery timeout (contract: 5 s); tests shorten it. */
  webhookTimeoutMs?: number;
  /** Channel test abort (contract: 10 s); tests shorten it. */
  channelTestTimeoutMs?: number;
  smtp?: SmtpConfig | null;
  notices?: Partial<NoticeOptions>;
  /** First Owner + organization, created once when no user with that e-mail exists. */
  bootstrap?: BootstrapOwner | null;
}

export const DEFAULT_SESSION_TTL_MS = 12 * 3_600_000;
export const DEFAULT_NOTICES: NoticeOptions = { lowBalanceNano: 5_000_000_000, teamWarnAt: 0.8 };

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

function num(env: NodeJS.ProcessEnv, name: string, dflt: number, problems: string[]): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) problems.push(`${name}: must be a non-negative number`);
  return n;
}

/**
 * Env names: SVC_DASHBOARD_HOST, SVC_DASHBOARD_PORT (8081), SVC_DASHBOARD_ORIGIN, SVC_DASHBOARD_SECURE_COOKIES
 * (true), SVC_SESSION_TTL_HOURS (12), SVC_SMTP_HOST, SVC_SMTP_PORT (25), SVC_SMTP_FROM, SVC_SMTP_HELO,
 * SVC_LOW_BALANCE_USD (5; 0 disables), SVC_TEAM_BUDGET_WARN_AT (0.8), SVC_BOOTSTRAP_OWNER_EMAIL,
 * SVC_BOOTSTRAP_OWNER_PASSWORD, SVC_BOOTSTRAP_ORG_NAME. Throws one Error listing every problem.
 */
export function dashboardOptionsFromEnv(env: NodeJS.ProcessEnv, defaults: { host: string; port: number }): DashboardOptions {
  const problems: string[] = [];
  const port = num(env, 'SVC_DASHBOARD_PORT', defaults.port, problems);
  const host = env.SVC_DASHBOARD_HOST ?? defaults.host;
  const origin = env.SVC_DASHBOARD_ORIGIN ?? `http://localhost:${port}`;
  try {
    if (new URL(origin).origin !== origin) problems.push('SVC_DASHBOARD_ORIGIN: must be a bare origin like https://dash.example.com');
  } catch {
    problems.push('SVC_DASHBOARD_ORIGIN: not a URL');
  }
  const smtpHost = env.SVC_SMTP_HOST;
  const smtp: SmtpConfig | null =
    smtpHost === undefined || smtpHost === ''
      ? null
      : {
          host: smtpHost,
          port: num(env, 'SVC_SMTP_PORT', 25, problems),
          from: env.SVC_SMTP_FROM ?? `svc@${smtpHost}`,
          helo: env.SVC_SMTP_HELO ?? 'svc-gateway',
        };
  const lowUsd = num(env, 'SVC_LOW_BALANCE_USD', 5, problems);
  const warnAt = num(env, 'SVC_TEAM_BUDGET_WARN_AT', DEFAULT_NOTICES.teamWarnAt, problems);
  if (warnAt > 1) problems.push('SVC_TEAM_BUDGET_WARN_AT: must be within 0..1');
  const email = env.SVC_BOOTSTRAP_OWNER_EMAIL;
  const password = env.SVC_BOOTSTRAP_OWNER_PASSWORD;
  let bootstrap: BootstrapOwner | null = null;
  if (email !== undefined && email !== '') {
    if (password === undefined || password === '') problems.push('SVC_BOOTSTRAP_OWNER_PASSWORD: required with SVC_BOOTSTRAP_OWNER_EMAIL');
    else bootstrap = { email, password, orgName: env.SVC_BOOTSTRAP_ORG_NAME ?? 'default' };
  }
  const sessionHours = num(env, 'SVC_SESSION_TTL_HOURS', 12, problems);
  if (sessionHours === 0) problems.push('SVC_SESSION_TTL_HOURS: must be positive');
  if (problems.length > 0) throw new Error(`dashboard configuration: ${problems.join('; ')}`);
  return {
    host,
    port,
    origin,
    secureCookies: bool(env.SVC_DASHBOARD_SECURE_COOKIES, true),
    sessionTtlMs: sessionHours * 3_600_000,
    smtp,
    notices: { lowBalanceNano: lowUsd === 0 ? null : Math.round(lowUsd * 1e9), teamWarnAt: warnAt },
    bootstrap,
  };
}
