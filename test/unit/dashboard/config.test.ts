import { describe, expect, it } from 'vitest';
import { dashboardOptionsFromEnv } from '../../../src/dashboard/config.js';

const DEFAULTS = { host: '0.0.0.0', port: 8081 };

describe('dashboardOptionsFromEnv', () => {
  it('defaults: port 8081, secure cookies, 12 h sessions, no SMTP, $5 low-balance level, no bootstrap', () => {
    expect(dashboardOptionsFromEnv({}, DEFAULTS)).toEqual({
      host: '0.0.0.0',
      port: 8081,
      origin: 'http://localhost:8081',
      secureCookies: true,
      sessionTtlMs: 12 * 3_600_000,
      smtp: null,
      notices: { lowBalanceNano: 5_000_000_000, teamWarnAt: 0.8 },
      bootstrap: null,
    });
  });

  it('reads every variable', () => {
    const o = dashboardOptionsFromEnv(
      {
        SVC_DASHBOARD_PORT: '9000',
        SVC_DASHBOARD_HOST: '127.0.0.1',
        SVC_DASHBOARD_ORIGIN: 'https://dash.example.com',
        SVC_DASHBOARD_SECURE_COOKIES: 'false',
        SVC_SESSION_TTL_HOURS: '2',
        SVC_SMTP_HOST: 'relay.local',
        SVC_SMTP_PORT: '2525',
        SVC_SMTP_FROM: 'billing@example.com',
        SVC_LOW_BALANCE_USD: '0',
        SVC_TEAM_BUDGET_WARN_AT: '0.9',
        SVC_BOOTSTRAP_OWNER_EMAIL: 'root@example.com',
        SVC_BOOTSTRAP_OWNER_PASSWORD: 'long enough pw',
        SVC_BOOTSTRAP_ORG_NAME: 'Acme',
      },
      DEFAULTS,
    );
    expect(o).toEqual({
      host: '127.0.0.1',
      port: 9000,
      origin: 'https://dash.example.com',
      secureCookies: false,
      sessionTtlMs: 2 * 3_600_000,
      smtp: { host: 'relay.local', port: 2525, from: 'billing@example.com', helo: 'svc-gateway' },
      notices: { lowBalanceNano: null, teamWarnAt: 0.9 },
      bootstrap: { email: 'root@example.com', password: 'long enough pw', orgName: 'Acme' },
    });
  });

  it('lists every problem at once', () => {
    expect(() =>
      dashboardOptionsFromEnv(
        { SVC_DASHBOARD_ORIGIN: 'https://dash.example.com/app', SVC_SESSION_TTL_HOURS: '0', SVC_BOOTSTRAP_OWNER_EMAIL: 'a@b.co', SVC_TEAM_BUDGET_WARN_AT: '2' },
        DEFAULTS,
      ),
    ).toThrow(
      'dashboard configuration: SVC_DASHBOARD_ORIGIN: must be a bare origin like https://dash.example.com; SVC_TEAM_BUDGET_WARN_AT: must be within 0..1; SVC_BOOTSTRAP_OWNER_PASSWORD: required with SVC_BOOTSTRAP_OWNER_EMAIL; SVC_SESSION_TTL_HOURS: must be positive',
    );
  });
});
