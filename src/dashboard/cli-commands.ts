/**
 * Operator commands (`svc admin ...`). Each builds the same request object the HTTP API receives and calls
 * the same service function, so validation, events and notices are identical; the CLI acts as the
 * operator (actor_user_id null) and needs no session or role.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors/gateway-error.js';
import { keyAlias } from '../keys/mint.js';
import { bucketEntry } from '../providers/storage-urls.js';
import type { Store } from '../store/contract.js';
import { createServices, type ServiceOptions, type Services } from './services.js';
import { isRole } from './users-service.js';
import { plainText } from './validate.js';
import { balanceView, keyView } from './views.js';

export const ADMIN_USAGE = `usage:
  org create --name <name>
  org storage --org <orgId> --allow <s3://bucket,gs://bucket | none>   (image URL buckets the org may name)
  org suspend --org <orgId>      (every key of the org refused on every gateway node at once)
  org resume --org <orgId>
  user create --email <e> (--password <p> | --password-env <VAR>) --org <orgId> --role owner|org_admin|member
  bootstrap --email <e> (--password <p> | --password-env <VAR>) --org-name <name>
  key create --org <orgId> --name <name> [--team <teamId>] [--budget-usd <n>] [--budget-warn-at <0..1>]
             [--rpm <n>] [--tpm <n>] [--models a,b] [--routes /v1/x,/v1/y] [--ips ip,cidr]
             [--expires-at <ISO 8601>] [--never-compress] [--legacy]
  key list --org <orgId>
  key revoke --org <orgId> --id <keyId>
  key rotate --org <orgId> --id <keyId> [--grace-hours <n>]
  credits topup --org <orgId> --usd <n> [--idempotency-key <k>]
  spend --org <orgId> --by key|model|tag|day`;

class UsageError extends Error {}

const FLAGS = new Set(['never-compress', 'legacy']);

function parseFlags(args: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument ${a}`);
    const name = a.slice(2);
    if (FLAGS.has(name)) {
      out.set(name, 'true');
      continue;
    }
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    out.set(name, v);
    i++;
  }
  return out;
}

function need(f: Map<string, string>, name: string): string {
  const v = f.get(name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

function number(f: Map<string, string>, name: string): number | undefined {
  const v = f.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number`);
  return n;
}

const list = (v: string | undefined): string[] | undefined => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== ''));

function password(f: Map<string, string>): string {
  const env = f.get('password-env');
  if (env !== undefined) {
    const v = process.env[env];
    if (v === undefined) throw new UsageError(`environment variable ${env} is not set`);
    return v;
  }
  return need(f, 'password');
}

/** The POST /api/keys body for `key create` flags (undefined fields are dropped by JSON semantics below). */
function keyBody(f: Map<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: need(f, 'name'),
    team_id: f.get('team'),
    budget_usd: number(f, 'budget-usd'),
    budget_warn_at: number(f, 'budget-warn-at'),
    rpm: number(f, 'rpm'),
    tpm: number(f, 'tpm'),
    allowed_models: list(f.get('models')),
    allowed_routes: list(f.get('routes')),
    allowed_ips: list(f.get('ips')),
    expires_at: f.get('expires-at'),
    never_compress: f.has('never-compress') ? true : undefined,
    key_prefix: f.has('legacy') ? 'sk-legacy-' : undefined,
  };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return body;
}

async function run(s: Services, cmd: string, f: Map<string, string>, out: (s: string) => void): Promise<void> {
  const org = (): string => need(f, 'org');
  switch (cmd) {
    case 'org create': {
      const o = await s.orgs.create(need(f, 'name'));
      out(`org ${o.id} ${o.name}`);
      return;
    }
    case 'org storage': {
      // Operator-only (finding 5): Bedrock and Vertex read these buckets with the gateway's credentials.
      const orgId = org();
      const raw = need(f, 'allow');
      const entries = raw === 'none' ? [] : raw.split(',').map((v) => ({ v, b: bucketEntry(v) }));
      const bad = entries.find((e) => e.b === null);
      if (bad !== undefined) throw new UsageError(`--allow: ${bad.v} is not s3://<bucket> or gs://<bucket>`);
      const buckets = [...new Set(entries.map((e) => e.b!))];
      await s.orgs.update(orgId, { storageBuckets: buckets });
      out(`org ${orgId} storage buckets: ${buckets.length === 0 ? 'none' : buckets.join(', ')}`);
      return;
    }
    case 'org suspend':
    case 'org resume': {
      // Every key of the organization is refused (401 key_blocked) on every gateway node from the next request.
      const status = cmd === 'org suspend' ? 'suspended' : 'active';
      const o = await s.orgs.update(org(), { status });
      out(`org ${o.id} ${o.status}`);
      return;
    }
    case 'user create': {
      const role = need(f, 'role');
      if (!isRole(role)) throw new UsageError('--role must be owner, org_admin or member');
      const orgId = org();
      if ((await s.orgs.get(orgId)) === null) throw new GatewayError('not_found', { message: `organization ${orgId} not found` });
      const u = await s.users.createUser(need(f, 'email'), password(f));
      await s.users.setRole(orgId, u.id, role);
      out(`user ${u.id} ${u.email} ${role} of ${orgId}`);
      return;
    }
    case 'bootstrap': {
      const b = await s.orgs.bootstrap({ email: need(f, 'email'), password: password(f), orgName: need(f, 'org-name') });
      out(b.created ? `owner ${b.user.id} ${b.user.email} of org ${b.org.id} ${b.org.name}` : 'a user with this e-mail already exists; nothing done');
      return;
    }
    case 'key create': {
      const { key, value } = await s.keys.create(org(), null, keyBody(f));
      out(`key ${key.id} ${keyAlias(key)} ${key.name}`);
      out(`value ${value}`);
      out('(the value is shown once; only its hash is stored)');
      return;
    }
    case 'key list': {
      const orgId = org();
      const spend = await s.credits.keySpend(orgId);
      for (const k of await s.keys.list(orgId)) {
        const v = keyView(k, spend.get(k.id) ?? 0, s.now());
        out([v.id, v.alias, v.status + (v.expired ? ' (expired)' : ''), `$${v.spend_usd}`, plainText(v.name)].join('\t'));
      }
      return;
    }
    case 'key revoke': {
      const k = await s.keys.revoke(org(), null, need(f, 'id'));
      out(`revoked ${k.id} ${keyAlias(k)}`);
      return;
    }
    case 'key rotate': {
      const grace = number(f, 'grace-hours');
      const r = await s.keys.rotate(org(), null, need(f, 'id'), grace === undefined ? {} : { grace_hours: grace });
      out(`key ${r.key.id} ${keyAlias(r.key)} ${r.key.name}`);
      out(`value ${r.value}`);
      out(`old ${r.old.id} ${keyAlias(r.old)} expires ${r.old.expiresAt === null ? 'never' : new Date(r.old.expiresAt).toISOString()}`);
      return;
    }
    case 'credits topup': {
      const idem = f.get('idempotency-key') ?? randomUUID();
      const { balance } = await s.credits.topUp(org(), { amount_usd: number(f, 'usd'), idempotency_key: idem });
      const b = balanceView(balance);
      out(`balance $${b.balance_usd} (held $${b.held_usd}) idempotency-key ${idem}`);
      return;
    }
    case 'spend': {
      const by = f.get('by') ?? 'key';
      for (const r of await s.credits.spend(org(), by)) {
        // Terminal output: stored tags and names show control and format characters as escapes.
        out([plainText(r.key_alias ?? r.group), `$${r.cost_usd}`, `${r.requests} req`, `${r.input_tokens} in`, `${r.output_tokens} out`].join('\t'));
      }
      return;
    }
    default:
      throw new UsageError(`unknown command: ${cmd}`);
  }
}

/** Runs one admin command; returns the exit code (0 ok, 1 refused, 2 usage). */
export async function runAdminCli(argv: string[], store: Store, out: (s: string) => void, opts: ServiceOptions = {}): Promise<number> {
  const twoWord = argv[0] !== undefined && ['org', 'user', 'key', 'credits'].includes(argv[0]);
  const cmd = twoWord ? `${argv[0]} ${argv[1] ?? ''}` : (argv[0] ?? '');
  const services = createServices(store, opts);
  try {
    await run(services, cmd, parseFlags(argv.slice(twoWord ? 2 : 1)), out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      out(`error: ${e.message}\n${ADMIN_USAGE}`);
      return 2;
    }
    if (e instanceof GatewayError) {
      out(`error: ${e.message}${e.param === undefined ? '' : ` (${e.param})`}`);
      return 1;
    }
    throw e;
  } finally {
    // Webhook deliveries of key actions finish (and are recorded) before the process exits.
    await services.events.idle();
  }
}
