import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAdminCli } from '../../../src/dashboard/cli-commands.js';
import type { GuardedRequestInit, GuardedResult } from '../../../src/events/ssrf-guard.js';
import { Authenticator } from '../../../src/pipeline/authenticate.js';
import { hashKey } from '../../../src/pipeline/authenticate.js';
import { Logger } from '../../../src/obs/logger.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';

let store: Store;
let lines: string[];
const sent: { url: string; body: Record<string, unknown> }[] = [];
const guard = {
  resolveAndCheck: (url: URL) => Promise.resolve({ ok: true as const, hostname: url.hostname, address: '93.184.216.34', family: 4 as const }),
  request: (url: string, init: GuardedRequestInit): Promise<GuardedResult> => {
    sent.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return Promise.resolve({ kind: 'response', status: 200 });
  },
};

async function cli(...argv: string[]): Promise<{ code: number; out: string[] }> {
  lines = [];
  const code = await runAdminCli(argv, store, (s) => lines.push(s), { guard, logger: new Logger('error', true, () => undefined) });
  return { code, out: lines };
}

function field(out: string[], prefix: string, index = 1): string {
  const line = out.find((l) => l.startsWith(prefix + ' '));
  if (line === undefined) throw new Error(`no "${prefix}" line in ${JSON.stringify(out)}`);
  return line.split(' ')[index]!;
}

beforeEach(async () => {
  store = await createStore({ kind: 'memory', snapshotPath: null });
  sent.length = 0;
});

afterEach(async () => {
  await store.close();
});

async function authOk(value: string): Promise<string> {
  try {
    await new Authenticator(store, 1).authenticate(
      { method: 'POST', path: '/v1/chat/completions', query: '', headers: new Map([['authorization', `Bearer ${value}`]]), ip: '1.2.3.4', body: Buffer.alloc(0), startedAt: 0 },
      '/v1/chat/completions',
    );
    return 'ok';
  } catch (e) {
    return (e as { headers: Record<string, string> }).headers['x-svc-auth-reason'] ?? 'error';
  }
}

describe('svc admin CLI against a memory store', () => {
  it('org, user, key create/list/rotate/revoke, top-up and spend', async () => {
    const org = await cli('org', 'create', '--name', 'Acme');
    expect(org.code).toBe(0);
    const orgId = field(org.out, 'org');
    expect((await store.getOrg(orgId))?.name).toBe('Acme');

    const user = await cli('user', 'create', '--email', 'Ops@Acme.com', '--password', 'long enough pw', '--org', orgId, '--role', 'owner');
    expect(user.code).toBe(0);
    expect(user.out[0]).toMatch(/^user [0-9a-f-]{36} ops@acme\.com owner of /);
    expect((await cli('user', 'create', '--email', 'ops@acme.com', '--password', 'long enough pw', '--org', orgId, '--role', 'owner')).code).toBe(1);

    const created = await cli('key', 'create', '--org', orgId, '--name', 'batch', '--models', 'gpt-4o-mini,claude', '--rpm', '30', '--budget-usd', '20', '--never-compress');
    expect(created.code).toBe(0);
    const keyId = field(created.out, 'key');
    const value = field(created.out, 'value');
    expect(value).toMatch(/^sk-svc-/);
    const rec = await store.getKey(orgId, keyId);
    expect(rec).toMatchObject({ hash: hashKey(value), allowedModels: ['gpt-4o-mini', 'claude'], rpm: 30, budget: 20_000_000_000, neverCompress: true, createdBy: null });
    expect(await authOk(value)).toBe('ok');

    const listed = await cli('key', 'list', '--org', orgId);
    expect(listed.out).toEqual([`${keyId}\tsk-...${value.slice(-4)}\tactive\t$0\tbatch`]);
    expect(listed.out.join('\n')).not.toContain(value);

    const rotated = await cli('key', 'rotate', '--org', orgId, '--id', keyId, '--grace-hours', '1');
    expect(rotated.code).toBe(0);
    const newValue = field(rotated.out, 'value');
    expect(rotated.out[2]).toMatch(new RegExp(`^old ${keyId} sk-\\.\\.\\.${value.slice(-4)} expires \\d{4}-`));
    expect(await authOk(newValue)).toBe('ok');

    const revoked = await cli('key', 'revoke', '--org', orgId, '--id', keyId);
    expect(revoked.code).toBe(0);
    expect(await authOk(value)).toBe('key_blocked');
    expect((await cli('key', 'revoke', '--org', orgId, '--id', keyId)).out).toEqual(['error: Key is already revoked.']);

    const top = await cli('credits', 'topup', '--org', orgId, '--usd', '12.5', '--idempotency-key', 'inv-1');
    expect(top.out[0]).toBe('balance $12.5 (held $0) idempotency-key inv-1');
    await cli('credits', 'topup', '--org', orgId, '--usd', '12.5', '--idempotency-key', 'inv-1');
    expect((await store.getBalance(orgId)).balance).toBe(12_500_000_000);
    const low = await cli('credits', 'topup', '--org', orgId, '--usd', '4');
    expect(low.code).toBe(1);
    expect(low.out[0]).toBe('error: amount_usd must be a number from 5 to 1000000 (amount_usd)');

    await store.settle([
      { requestId: 'r1', orgId, keyId, teamId: null, user: null, model: 'gpt-4o-mini', requestedModel: 'gpt-4o-mini', cost: 1_500_000_000, inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, tokens: 15, tags: ['env=prod'], hadHold: false, scopes: [], status: 'ok', endpoint: '/v1/chat/completions', latencyMs: 1, at: Date.parse('2030-03-04T05:06:07Z') },
    ]);
    expect((await cli('spend', '--org', orgId, '--by', 'key')).out).toEqual([`sk-...${value.slice(-4)}\t$1.5\t1 req\t10 in\t5 out`]);
    expect((await cli('spend', '--org', orgId, '--by', 'day')).out).toEqual(['2030-03-04\t$1.5\t1 req\t10 in\t5 out']);
    expect((await cli('spend', '--org', orgId, '--by', 'colour')).code).toBe(1);
  });

  it('key actions from the CLI reach webhook subscriptions with actor_user_id null', async () => {
    const orgId = field((await cli('org', 'create', '--name', 'Hooks')).out, 'org');
    const { WebhooksService } = await import('../../../src/dashboard/webhooks-service.js');
    await new WebhooksService(store, guard, Date.now).register(orgId, 'u1', { url: 'https://hooks.example.com/in', events: ['key.created', 'key.revoked'] });
    const keyId = field((await cli('key', 'create', '--org', orgId, '--name', 'from cli')).out, 'key');
    await cli('key', 'revoke', '--org', orgId, '--id', keyId);
    expect(sent.map((s) => [s.body.event, (s.body.data as { actor_user_id: unknown }).actor_user_id])).toEqual([
      ['key.created', null],
      ['key.revoked', null],
    ]);
  });

  it('bootstrap creates the first Owner once; usage errors exit 2', async () => {
    process.env.SVC_TEST_BOOT_PW = 'bootstrap password';
    const first = await cli('bootstrap', '--email', 'root@acme.com', '--password-env', 'SVC_TEST_BOOT_PW', '--org-name', 'Acme');
    expect(first.out[0]).toMatch(/^owner [0-9a-f-]{36} root@acme\.com of org /);
    expect((await cli('bootstrap', '--email', 'root@acme.com', '--password-env', 'SVC_TEST_BOOT_PW', '--org-name', 'Acme')).out[0]).toBe(
      'a user with this e-mail already exists; nothing done',
    );
    expect((await store.listOrgs()).length).toBe(1);
    expect((await cli('key', 'create', '--name', 'x')).code).toBe(2);
    expect((await cli('key', 'explode')).code).toBe(2);
    expect((await cli('spend', '--org')).code).toBe(2);
    expect((await cli('user', 'create', '--email', 'a@b.co', '--password', 'long enough pw', '--org', 'x', '--role', 'root')).code).toBe(2);
  });
});

describe('names in terminal output (security hardening, finding 6)', () => {
  it('a key name stored before validation shows its bidi override as a visible escape in key list', async () => {
    const orgId = field((await cli('org', 'create', '--name', 'Shown')).out, 'org');
    const { keyRecord } = await import('../../../src/keys/mint.js');
    await store.createKey({ ...keyRecord(orgId, 'invoice\u202efdp.exe', 'sk-svc-Q7vN2kLp9XwR4tYb8MzC3dFg', {}), createdAt: Date.now() });
    const listed = (await cli('key', 'list', '--org', orgId)).out.join('\n');
    expect(listed).toContain('invoice\\u{202e}fdp.exe');
    expect(listed).not.toContain('\u202e');
    expect((await cli('key', 'create', '--org', orgId, '--name', 'x\u202ey')).code).toBe(1);
  });
});
