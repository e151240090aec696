import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerFacts, freePort, ROOT, startMain, type MainProcess } from '../helpers/main-process.js';

const run = promisify(execFile);

interface Block {
  lang: string;
  code: string;
}

/** The fenced blocks of one README section (from its `## ` heading to the next). */
function sectionBlocks(readme: string, heading: string): Block[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

/** `A=1 B='x y' \ make run` -> {A: '1', B: 'x y'}: the environment a start command sets. */
function startEnv(code: string): Record<string, string> {
  const line = code.replace(/\\\n/g, ' ');
  const before = line.slice(0, line.indexOf('make run'));
  const env: Record<string, string> = {};
  for (const m of before.matchAll(/([A-Z_][A-Z0-9_]*)=('([^']*)'|"([^"]*)"|(\S+))/g)) env[m[1]!] = m[3] ?? m[4] ?? m[5]!;
  return env;
}

/**
 * The newcomer path, run as the README writes it: a fresh data directory, the gateway started as `make run`
 * starts it (`node dist/src/main.js`, SVC_DEV_BOOTSTRAP=true) with the environment the README's start command
 * sets, the banner's own curl line, then every shell block of "Your first hour" in one bash session and every
 * JavaScript block with node. The only edit is the port: the README's 8080 / 8081 become free ports.
 */
describe('newcomer path: README "Your first hour", verbatim', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = sectionBlocks(readme, 'Your first hour');
  const start = blocks.find((b) => b.lang === 'sh' && b.code.includes('make run'))!;
  const shell = blocks.filter((b) => b.lang === 'sh' && !b.code.includes('make run'));
  const js = blocks.filter((b) => b.lang === 'js');
  const work = mkdtempSync(join(tmpdir(), 'svc-newcomer-'));
  let proc: MainProcess;
  let gwPort = 0;
  let dashPort = 0;
  let devKey = '';
  const localize = (code: string): string => code.replaceAll('localhost:8080', `localhost:${gwPort}`).replaceAll('localhost:8081', `localhost:${dashPort}`);

  beforeAll(async () => {
    gwPort = await freePort();
    dashPort = await freePort();
    proc = startMain({
      SVC_DEV_BOOTSTRAP: 'true',
      SVC_DATA_DIR: join(work, 'data'),
      SVC_PORT: String(gwPort),
      SVC_DASHBOARD_PORT: String(dashPort),
      ...startEnv(start.code),
    });
    if (!(await proc.waitFor(/curl -s .*\n.*\n\n/, 60_000))) throw new Error(`gateway did not start:\n${proc.stderr()}\n${proc.stdout()}`);
    devKey = bannerFacts(proc.stderr()).key!;
  }, 90_000);
  afterAll(async () => proc?.stop());

  it('the README section has what this test runs', () => {
    expect(startEnv(start.code)).toMatchObject({ SVC_BOOTSTRAP_OWNER_EMAIL: 'owner@example.com', SVC_DASHBOARD_SECURE_COOKIES: 'false' });
    expect(shell.length).toBeGreaterThanOrEqual(2);
    expect(shell.map((b) => b.code).join('')).toContain('localhost:8081');
    expect(js).toHaveLength(2);
    expect(js[0]!.code).toContain("baseURL: 'http://localhost:8080/v1'");
    expect(js[1]!.code).toContain("baseURL: 'http://localhost:8080'");
  });

  it("the banner's curl line answers", async () => {
    const { curl } = bannerFacts(proc.stderr());
    expect(curl).not.toBeNull();
    const { stdout } = await run('bash', ['-c', curl!]);
    const body = JSON.parse(stdout) as { object: string; choices: { message: { content: string } }[] };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.message.content.length).toBeGreaterThan(0);
  });

  it('the dashboard walkthrough: sign in, top up, a key with a budget, a call, the spend', async () => {
    const script = ['set -euo pipefail', ...shell.map((b) => localize(b.code))].join('\n');
    const { stdout, stderr } = await run('bash', ['-c', script], { cwd: work, env: { PATH: process.env.PATH ?? '', HOME: work, KEY: devKey } });
    expect(stderr).toBe('');
    // The outputs, in order: login, top-up, chat completion, spend by key, credits (curl prints no newline).
    expect(stdout).toContain('"email":"owner@example.com"');
    expect(stdout).toMatch(/"balance_usd":"20(\.0+)?"/);
    expect(stdout).toContain('"object":"chat.completion"');
    const spend = /\{"by":"key","rows":(\[.*?\])\}/.exec(stdout);
    expect(spend, stdout).not.toBeNull();
    const rows = JSON.parse(spend![1]!) as { key_name: string; cost_usd: string; requests: number }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key_name: 'my-app', requests: 1 });
    expect(Number(rows[0]!.cost_usd)).toBeGreaterThan(0);
    const credits = JSON.parse(/(\{"balance_usd"[^}]*\})$/.exec(stdout.trim())![1]!) as { balance_usd: string };
    expect(Number(credits.balance_usd)).toBeCloseTo(20 - Number(rows[0]!.cost_usd), 9);
  }, 60_000);

  it.each([0, 1])('SDK snippet %i runs as written with the dev key', async (i) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-snippet-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const file = join(dir, 'snippet.mjs');
    writeFileSync(file, localize(js[i]!.code));
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env: { PATH: process.env.PATH ?? '', KEY: devKey } });
    expect(stdout.trim().length).toBeGreaterThan(0);
  }, 60_000);
});
