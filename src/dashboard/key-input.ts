/**
 * The key-creation body (dashboard POST /api/keys, each bulk import row, and the CLI, which builds the same
 * object): snake_case fields, unknown fields refused, every limit checked before anything is stored.
 */
import { usdToNano, type NanoUsd } from '../billing/money.js';
import { invalid } from '../errors/gateway-error.js';
import type { KeyPrefix } from '../keys/mint.js';
import { ipAllowed } from '../pipeline/ip-policy.js';
import { name, objectWith, optBool, optFutureTime, optNum, optStr, optStrArray } from './validate.js';

export interface KeyInput {
  name: string;
  teamId: string | null;
  budget: NanoUsd | null;
  budgetWarnAt: number | null;
  rpm: number | null;
  tpm: number | null;
  maxConcurrency: number | null;
  allowedModels: string[] | null;
  allowedRoutes: string[] | null;
  allowedIps: string[] | null;
  expiresAt: number | null;
  neverCompress: boolean;
  prefix: KeyPrefix;
  /** Bulk import only: an existing key value to carry over (hashed at once, never stored or echoed). */
  value: string | null;
}

const CREATE_FIELDS = [
  'name',
  'team_id',
  'budget_usd',
  'budget_warn_at',
  'rpm',
  'tpm',
  'max_concurrency',
  'allowed_models',
  'allowed_routes',
  'allowed_ips',
  'expires_at',
  'never_compress',
  'key_prefix',
] as const;

const MAX_LIMIT = 1_000_000_000;
const MAX_BUDGET_USD = 10_000_000;

function prefixOf(v: unknown): KeyPrefix {
  if (v === undefined || v === null || v === 'sk-svc-') return 'sk-svc-';
  if (v === 'sk-legacy-') return 'sk-legacy-';
  throw invalid('key_prefix must be sk-svc- or sk-legacy-', 'key_prefix');
}

/** Estimated strength an imported key must have (a minted key has 256 bits; NIST asks 112 for secrets). */
export const IMPORTED_KEY_MIN_BITS = 112;

/**
 * Bits of a random secret of this length over the character classes it uses: an upper bound that a human
 * pattern (`aaaa...`, `0123...`) does not reach because it also needs 12 distinct characters.
 */
function estimatedBits(secret: string): number {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[-_]/].map((re, i) => (re.test(secret) ? [26, 26, 10, 2][i]! : 0));
  return secret.length * Math.log2(classes.reduce((a, b) => a + b, 0));
}

/**
 * An imported key value: a known prefix, then 20 to 200 URL-safe characters that look random (at least 12
 * distinct characters and about 112 bits by length and alphabet; finding 6: weak imported keys).
 */
export function importedValue(v: unknown): string {
  if (typeof v !== 'string' || !/^sk-(svc|legacy)-[A-Za-z0-9_-]{20,200}$/.test(v)) {
    throw invalid('value must be sk-svc- or sk-legacy- followed by 20 to 200 URL-safe characters', 'value');
  }
  const secret = v.replace(/^sk-(svc|legacy)-/, '');
  if (new Set(secret).size < 12 || estimatedBits(secret) < IMPORTED_KEY_MIN_BITS) {
    throw invalid(`value is too weak to be a key: it needs about ${IMPORTED_KEY_MIN_BITS} bits of randomness (e.g. 22 random letters and digits)`, 'value');
  }
  return v;
}

export function parseKeyInput(body: unknown, now: number, opts: { allowValue: boolean }): KeyInput {
  const o = objectWith(body, opts.allowValue ? [...CREATE_FIELDS, 'value'] : CREATE_FIELDS);
  const budgetUsd = optNum(o, 'budget_usd', { min: 0, max: MAX_BUDGET_USD });
  const warnAt = optNum(o, 'budget_warn_at', { min: 0, max: 1 });
  if (warnAt !== null && budgetUsd === null) throw invalid('budget_warn_at needs budget_usd', 'budget_warn_at');
  const allowedRoutes = optStrArray(o, 'allowed_routes', { maxItems: 100, maxLen: 200, minItems: 1 });
  const badRoute = allowedRoutes?.find((r) => !r.startsWith('/v1/'));
  if (badRoute !== undefined) throw invalid(`allowed_routes entries must start with /v1/ (got ${badRoute})`, 'allowed_routes');
  const allowedIps = optStrArray(o, 'allowed_ips', { maxItems: 100, maxLen: 64, minItems: 1 });
  if (allowedIps !== null && ipAllowed('0.0.0.0', allowedIps) === null) {
    throw invalid('allowed_ips entries must be IPv4 addresses, IPv4 CIDRs or IPv6 addresses', 'allowed_ips');
  }
  const value = opts.allowValue && o.value !== undefined ? importedValue(o.value) : null;
  const prefix = value === null ? prefixOf(o.key_prefix) : value.startsWith('sk-legacy-') ? 'sk-legacy-' : 'sk-svc-';
  if (value !== null && o.key_prefix !== undefined && prefixOf(o.key_prefix) !== prefix) {
    throw invalid('key_prefix does not match the imported value', 'key_prefix');
  }
  return {
    name: name(o, 'name', { max: 200 }),
    teamId: optStr(o, 'team_id', { max: 100 }),
    budget: budgetUsd === null ? null : usdToNano(budgetUsd),
    budgetWarnAt: warnAt,
    rpm: optNum(o, 'rpm', { min: 1, max: MAX_LIMIT, int: true }),
    tpm: optNum(o, 'tpm', { min: 1, max: MAX_LIMIT, int: true }),
    maxConcurrency: optNum(o, 'max_concurrency', { min: 1, max: 100_000, int: true }),
    allowedModels: optStrArray(o, 'allowed_models', { maxItems: 500, maxLen: 200, minItems: 1 }),
    allowedRoutes,
    allowedIps,
    expiresAt: optFutureTime(o, 'expires_at', now),
    neverCompress: optBool(o, 'never_compress') ?? false,
    prefix,
    value,
  };
}

/** PATCH /api/keys/<id>: the fields the Store lets change. `undefined` = leave as is, null = clear. */
export interface KeyPatchInput {
  name?: string;
  budget?: NanoUsd | null;
  rpm?: number | null;
  tpm?: number | null;
}

export function parseKeyPatch(body: unknown): KeyPatchInput {
  const o = objectWith(body, ['name', 'budget_usd', 'rpm', 'tpm']);
  const out: KeyPatchInput = {};
  if (o.name !== undefined) out.name = name(o, 'name', { max: 200 });
  if (o.budget_usd !== undefined) {
    const b = optNum(o, 'budget_usd', { min: 0, max: MAX_BUDGET_USD });
    out.budget = b === null ? null : usdToNano(b);
  }
  if (o.rpm !== undefined) out.rpm = optNum(o, 'rpm', { min: 1, max: MAX_LIMIT, int: true });
  if (o.tpm !== undefined) out.tpm = optNum(o, 'tpm', { min: 1, max: MAX_LIMIT, int: true });
  if (Object.keys(out).length === 0) throw invalid('Nothing to change: send name, budget_usd, rpm or tpm.');
  return out;
}
