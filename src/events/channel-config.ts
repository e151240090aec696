/**
 * Notification channel `config` validation and redaction (gateway-api.md, Notification channel and
 * Notification channel API). Keys per type are exactly those the contract lists; unknown keys are
 * refused; every URL must be a public HTTPS endpoint (the same SSRF guard as webhooks); secrets are
 * masked on every read.
 */
import { checkUrlSyntax } from './ssrf-guard.js';

export const CHANNEL_TYPES = ['email', 'slack', 'teams', 'jira', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export type ChannelConfig = Record<string, string>;

/** Fixed mask: reveals neither the secret nor its length. */
export const REDACTED = '********';

/** Webhook subscription secrets are 8-128 characters (Limits); channel secrets follow the same rule. */
const SECRET_MIN = 8;
const SECRET_MAX = 128;
const TOKEN_MAX = 1024;
const MAX_RECIPIENTS = 50;

type Check = (value: string) => string | null;
/** `full`: replaced by the mask. `url-path`: scheme and host kept, the secret-bearing path masked. */
type Redaction = 'none' | 'full' | 'url-path';
interface KeySpec {
  required: boolean;
  redact: Redaction;
  check: Check;
}

const publicHttpsUrl: Check = (v) => {
  const r = checkUrlSyntax(v);
  return r.ok ? null : r.reason;
};

const jiraBaseUrl: Check = (v) => {
  const r = checkUrlSyntax(v);
  if (!r.ok) return r.reason;
  return r.url.search !== '' || r.url.hash !== '' ? 'must not carry a query or fragment' : null;
};

const secret: Check = (v) =>
  v.length < SECRET_MIN || v.length > SECRET_MAX ? `must be ${SECRET_MIN} to ${SECRET_MAX} characters` : null;

const token: Check = (v) => (v.length === 0 || v.length > TOKEN_MAX ? `must be 1 to ${TOKEN_MAX} characters` : null);

// Jira project keys: a letter, then letters, digits or underscores (Jira's default key pattern,
// relaxed to either case and up to 50 characters since admins can change the pattern).
const projectKey: Check = (v) => (/^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(v) ? null : 'must be a Jira project key');

// Dot-atom local part (RFC 5322 3.2.3) at a host name with at least two labels. Quoted local parts
// and address literals are deliberately not accepted.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL_RE = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@${LABEL}(?:\\.${LABEL})*\\.(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$`);

export function isEmailAddress(v: string): boolean {
  const at = v.lastIndexOf('@');
  return v.length <= 254 && at > 0 && at <= 64 && EMAIL_RE.test(v);
}

const email: Check = (v) => (isEmailAddress(v) ? null : 'must be a valid e-mail address');

const recipients: Check = (v) => {
  const list = v.split(',').map((s) => s.trim());
  if (list.length > MAX_RECIPIENTS) return `must list at most ${MAX_RECIPIENTS} addresses`;
  const bad = list.find((s) => !isEmailAddress(s));
  return bad === undefined ? null : bad === '' ? 'has an empty entry' : `has an invalid address: ${bad}`;
};

const SPECS: Record<ChannelType, Record<string, KeySpec>> = {
  webhook: {
    url: { required: true, redact: 'none', check: publicHttpsUrl },
    secret: { required: false, redact: 'full', check: secret },
  },
  slack: { webhook_url: { required: true, redact: 'url-path', check: publicHttpsUrl } },
  teams: { webhook_url: { required: true, redact: 'url-path', check: publicHttpsUrl } },
  jira: {
    base_url: { required: true, redact: 'none', check: jiraBaseUrl },
    email: { required: true, redact: 'none', check: email },
    api_token: { required: true, redact: 'full', check: token },
    project_key: { required: true, redact: 'none', check: projectKey },
  },
  email: { recipients: { required: true, redact: 'none', check: recipients } },
};

export function isChannelType(v: unknown): v is ChannelType {
  return typeof v === 'string' && (CHANNEL_TYPES as readonly string[]).includes(v);
}

export type ConfigCheck = { ok: true; config: ChannelConfig } | { ok: false; param: string; reason: string };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Validates a full config for `type`. Returns a fresh object holding only the listed keys; the
 * recipients list is normalised to `a@x.com,b@y.com`. The first failure is reported with its key as
 * `param` (`config.<key>`) so the caller can render a 400 naming the field.
 */
export function validateChannelConfig(type: ChannelType, config: unknown): ConfigCheck {
  const spec = SPECS[type];
  if (!isPlainObject(config)) return { ok: false, param: 'config', reason: 'config must be an object' };
  const unknown = Object.keys(config).find((k) => !Object.hasOwn(spec, k));
  if (unknown !== undefined) {
    return { ok: false, param: `config.${unknown}`, reason: `unknown key ${unknown} for a ${type} channel` };
  }
  const out: ChannelConfig = {};
  for (const [key, rule] of Object.entries(spec)) {
    const value = config[key];
    const param = `config.${key}`;
    if (value === undefined) {
      if (rule.required) return { ok: false, param, reason: `${key} is required for a ${type} channel` };
      continue;
    }
    if (typeof value !== 'string') return { ok: false, param, reason: `${key} must be a string` };
    // A client that echoes a redacted read back must not store the mask as the new secret.
    if (rule.redact !== 'none' && value.includes(REDACTED)) {
      return { ok: false, param, reason: `${key} holds the redaction mask, not a value` };
    }
    const problem = rule.check(value);
    if (problem !== null) return { ok: false, param, reason: `${key} ${problem}` };
    out[key] = key === 'recipients' ? value.split(',').map((s) => s.trim()).join(',') : value;
  }
  return { ok: true, config: out };
}

function redactValue(how: Redaction, value: string): string {
  if (how === 'none') return value;
  if (how === 'full') return REDACTED;
  try {
    const u = new URL(value);
    return `${u.protocol}//${u.host}/${REDACTED}`;
  } catch {
    return REDACTED;
  }
}

/**
 * Copy of a stored config safe to return on any read. Secret keys are masked; a key the current
 * spec does not know (a legacy row) is masked too, since nothing proves it is not a secret.
 */
export function redactChannelConfig(type: ChannelType, config: Readonly<ChannelConfig>): ChannelConfig {
  const spec = SPECS[type];
  const out: ChannelConfig = {};
  for (const [key, value] of Object.entries(config)) {
    const rule = Object.hasOwn(spec, key) ? spec[key] : undefined;
    out[key] = rule === undefined ? REDACTED : redactValue(rule.redact, value);
  }
  return out;
}

/**
 * For a PATCH: secret keys the client sent back in their redacted form keep the stored value, so a
 * round-tripped read does not overwrite a secret with the mask. Only while every non-secret field (the
 * destination and identity: url, base_url, email, project key) is unchanged: a secret is never re-aimed at a
 * new destination without being sent again (otherwise anyone who may edit a channel could point it, and the
 * stored credential, at a host of their own). Run before `validateChannelConfig`, which refuses a mask.
 */
export function restoreRedacted(type: ChannelType, stored: Readonly<ChannelConfig>, incoming: Record<string, unknown>): Record<string, unknown> {
  const spec = SPECS[type];
  const out: Record<string, unknown> = { ...incoming };
  const sameDestination = Object.entries(spec).every(([key, rule]) => rule.redact !== 'none' || incoming[key] === stored[key]);
  if (!sameDestination) return out;
  for (const [key, rule] of Object.entries(spec)) {
    const prev = stored[key];
    if (rule.redact === 'none' || prev === undefined) continue;
    if (incoming[key] === redactValue(rule.redact, prev)) out[key] = prev;
  }
  return out;
}
