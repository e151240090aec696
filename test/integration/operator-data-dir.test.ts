/**
 * Operator issue items 3 and 4, through the real processes: the dev key survives a restart of the same data
 * directory (and is kept only in a 0600 file), the admin CLI writes safely beside a running gateway on the
 * embedded store (the gateway serves the new key and credit at once, and both survive a restart), and a
 * second gateway on the same data directory refuses to start, naming the directory and the holder's pid.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ORG_ID } from '../../src/dev/bootstrap.js';
import { projectRoot } from '../../src/pool/pool.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.js';

const run = promisify(execFile);

async function chat(url: string, key: string): Promise<{ status: number; code: string | null; cost: string | undefined }> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 }),
  });
  const body = (await res.body.json()) as { error?: { code?: string | null } };
  return { status: res.statusCode, code: body.error?.code ?? null, cost: res.headers['x-svc-request-cost'] as string | undefined };
}

/** The dev key from the start-up banner (printed a moment after /healthz first answers). */
async function devKeyOf(p: GatewayProcess): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const m = /dev key\s+(sk-\S+)/.exec(p.stderr());
    if (m?.[1]) return m[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no dev key printed:\n${p.stderr()}`);
}

async function admin(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [join(projectRoot(), 'dist/src/cli.js'), 'admin', ...args], { env: { ...process.env, ...env } });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe('embedded store: one data directory, its dev key, the operator CLI beside the gateway', () => {
  let dir: string;
  let env: Record<string, string>;
  let gw: GatewayProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-operator-'));
    env = { SVC_DATA_DIR: dir, SVC_DEV_BOOTSTRAP: 'true' };
    gw = await startGatewayProcess(env);
  }, 30_000);
  afterAll(async () => {
    if (gw) await stopGatewayProcess(gw);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the dev key across a restart; its plaintext is only in a 0600 file', async () => {
    const key = await devKeyOf(gw);
    expect((await chat(gw.url, key)).status).toBe(200);
    const file = join(dir, 'dev-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    await stopGatewayProcess(gw);
    gw = await startGatewayProcess(env);
    expect(await devKeyOf(gw)).toBe(key);
    expect(await chat(gw.url, key)).toMatchObject({ status: 200, code: null });
  }, 30_000);

  it('refuses a second gateway on the same data directory, naming it and the holding pid', async () => {
    const second = await startGatewayProcess(env, { waitHealthy: false });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`data directory ${dir} is in use by another gateway (pid ${gw.child.pid})`);
    // The running gateway is untouched.
    expect((await chat(gw.url, await devKeyOf(gw))).status).toBe(200);
  }, 30_000);

  it('admin key create and credits topup beside the running gateway: served at once, kept after restart', async () => {
    const created = await admin(env, ['key', 'create', '--org', DEV_ORG_ID, '--name', 'cli']);
    expect(created.code).toBe(0);
    const value = /^value (sk-\S+)$/m.exec(created.out)?.[1];
    expect(value).toBeDefined();
    expect(await chat(gw.url, value!)).toMatchObject({ status: 200, code: null });

    const before = await admin(env, ['credits', 'topup', '--org', DEV_ORG_ID, '--usd', '5', '--idempotency-key', 'cli-topup-1']);
    expect(before.code).toBe(0);
    const balanceOf = (out: string): number => Number(/balance \$(-?[\d.]+)/.exec(out)?.[1]);
    // A repeat of the same top-up changes nothing and reports the balance the gateway also sees.
    const again = await admin(env, ['credits', 'topup', '--org', DEV_ORG_ID, '--usd', '5', '--idempotency-key', 'cli-topup-1']);
    expect(balanceOf(again.out)).toBeLessThanOrEqual(balanceOf(before.out));

    await stopGatewayProcess(gw);
    gw = await startGatewayProcess(env);
    expect(await chat(gw.url, value!)).toMatchObject({ status: 200, code: null });
    const listed = await admin(env, ['key', 'list', '--org', DEV_ORG_ID]);
    expect(listed.out).toContain('\tcli');
    const revoked = await admin(env, ['key', 'revoke', '--org', DEV_ORG_ID, '--id', /^key (\S+)/m.exec(created.out)![1]!]);
    expect(revoked.code).toBe(0);
    // Revocation bites on the running gateway's next request (admission re-reads the key from the database).
    expect(await chat(gw.url, value!)).toMatchObject({ status: 401, code: 'invalid_api_key', cost: undefined });
  }, 60_000);
});
