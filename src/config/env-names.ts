import { closestName } from './fields.js';

/**
 * Every SVC_* environment variable the gateway reads. A name outside this list is a typo or a setting this version
 * does not have; the start-up warning names it (with the closest known name) instead of ignoring it silently.
 * test/unit/config/env-names.test.ts fails when the source reads an SVC_* name that is missing here.
 */
export const KNOWN_ENV_NAMES: readonly string[] = [
  'SVC_BOOTSTRAP_ORG_NAME',
  'SVC_BOOTSTRAP_OWNER_EMAIL',
  'SVC_BOOTSTRAP_OWNER_PASSWORD',
  'SVC_CONFIG',
  'SVC_DASHBOARD_HOST',
  'SVC_DASHBOARD_ORIGIN',
  'SVC_DASHBOARD_PORT',
  'SVC_DASHBOARD_SECURE_COOKIES',
  'SVC_DATA_DIR',
  'SVC_DEV_BOOTSTRAP',
  'SVC_DEV_KEY',
  'SVC_GUARD_CUTS',
  'SVC_GUARD_MODEL',
  'SVC_GUARDRAILS_MODE',
  'SVC_HEAP_GROWING_PERCENT',
  'SVC_HOST',
  'SVC_LOG_JSON',
  'SVC_LOG_LEVEL',
  'SVC_LOW_BALANCE_USD',
  'SVC_MAX_BODY_BYTES',
  'SVC_METRICS_TOKEN',
  'SVC_PORT',
  'SVC_PROCESS_INDEX',
  'SVC_PROCESSES',
  'SVC_REDIS_URL',
  'SVC_SECRETS_KEY',
  'SVC_SESSION_TTL_HOURS',
  'SVC_SIM_ACCESS_KEY_ID',
  'SVC_SIM_REGION',
  'SVC_SIM_SECRET_ACCESS_KEY',
  'SVC_SIM_TOKEN',
  'SVC_SMTP_FROM',
  'SVC_SMTP_HELO',
  'SVC_SMTP_HOST',
  'SVC_SMTP_PORT',
  'SVC_TEAM_BUDGET_WARN_AT',
];

const known = new Set(KNOWN_ENV_NAMES);

export interface UnknownEnvName {
  name: string;
  /** The known name within two edits, if any. */
  suggestion: string | null;
}

/** The SVC_* variables set in `env` that the gateway does not read, each with the nearest known name. */
export function unknownEnvNames(env: NodeJS.ProcessEnv): UnknownEnvName[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('SVC_') && !known.has(name))
    .sort()
    .map((name) => ({ name, suggestion: closestName(name, KNOWN_ENV_NAMES) }));
}
