import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { bannerFacts, freePort, ROOT, startMain, type MainProcess } from '../helpers/main-process.js';

const run = promisify(execFile);

/** The first hour of an operator, through the public start-up: `node dist/src/main.js`, its banner, its logs. */
describe('operator start-up', () => {
  let proc: MainProcess | null = null;
  afterEach(async () => {
    await proc?.stop();
    proc = null;
  });

  const tmp = (): string => mkdtempSync(join(tmpdir(), 'svc-operator-'));
  const writeConfig = (dir: string, config: unknown): string => {
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify(config, null, 2));
    return path;
  };
  const baseEnv = async (dir: string): Promise<Record<string, string>> => ({
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_HOST: '127.0.0.1',
    SVC_PORT: String(await freePort()),
    SVC_DASHBOARD_PORT: String(await freePort()),
    SVC_GUARDRAILS_MODE: 'off',
  });

  it('a misspelled provider and an unknown field refuse to start, naming each path', async () => {
    const dir = tmp();
    const config = writeConfig(dir, {
      models: [
        {
          id: 'acme/model',
          pricing: { input: 1, output: 2 },
          endpoints: [{ provider: 'opneai', provder: 'openai', upstreamModel: 'm', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' }],
        },
      ],
    });
    proc = startMain({ ...(await baseEnv(dir)), SVC_DEV_BOOTSTRAP: 'true', SVC_CONFIG: config });
    expect(await proc.exited).toBe(1);
    const err = proc.stderr();
    expect(err).toContain('models[0].endpoints[0].provider: unknown provider "opneai" (did you mean "openai"?)');
    expect(err).toContain('models[0].endpoints[0].provder: unknown field (did you mean "provider"?)');
    expect(err).not.toContain('svc gateway ready');
  });

  it('the operator CLI refuses the same file with the same messages', async () => {
    const dir = tmp();
    const config = writeConfig(dir, { prot: 8080, models: [{ id: 'acme/model', pricing: { input: 1, output: 2 }, endpoints: [{ provider: 'opneai', upstreamModel: 'm', baseUrl: 'https://api.openai.com/v1' }] }] });
    const result = await run(process.execPath, [join(ROOT, 'dist/src/cli.js'), 'admin', 'org', 'create', '--name', 'acme'], {
      env: { PATH: process.env.PATH ?? '', SVC_CONFIG: config, SVC_DATA_DIR: join(dir, 'data') },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('prot: unknown field (did you mean "port"?)');
    expect(result.stderr).toContain('models[0].endpoints[0].provider: unknown provider "opneai"');
  });

  it('config.example.json extends the built-in catalog: the banner curl line still answers, the new models are listed', async () => {
    const dir = tmp();
    // Guardrails at their default (enforce) here: the banner says where scoring runs.
    proc = startMain({ ...(await baseEnv(dir)), SVC_GUARDRAILS_MODE: 'enforce', SVC_DEV_BOOTSTRAP: 'true', SVC_CONFIG: join(ROOT, 'config.example.json') });
    expect(await proc.waitFor('svc gateway ready')).toBe(true);
    expect(await proc.waitFor(/curl -s .*\n.*\n\n/)).toBe(true);
    const banner = proc.stderr();
    const example = JSON.parse(readFileSync(join(ROOT, 'config.example.json'), 'utf8')) as { models: { id: string }[] };
    expect(banner).toContain(`models      ${DEMO_CATALOG.length + example.models.length} `);
    expect(banner).toMatch(/catalog {5}built-in \+ .*config\.example\.json/);
    expect(banner).toMatch(
      /guardrails {2}enforce \(texts up to 1024 characters per request scored on the event loop at once, longer ones there in ~2 KB slices while at most 65536 characters wait, the rest in the worker pool; up to (1 scoring thread|\d+ scoring threads), started on demand\)/,
    );
    const { key, curl } = bannerFacts(banner);
    expect(key).not.toBeNull();
    expect(curl).toContain('"model":"gpt-4o-mini"');
    const port = (await bannerPort(proc))!;
    const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(res.status).toBe(200);
    const listed = (await (await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: { id: string }[];
    };
    const ids = listed.data.map((m) => m.id);
    for (const id of [...DEMO_CATALOG.map((m) => m.id), ...example.models.map((m) => m.id), 'fastest-gpt', 'svc/auto', 'fastest-llama']) {
      expect(ids).toContain(id);
    }
    const groq = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'groq/llama-3.1-8b-instant', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 5 }),
    });
    expect(groq.status).toBe(200); // GROQ_API_KEY is unset: dev bootstrap serves it from the simulator
    expect(banner).toContain('credential  GROQ_API_KEY is unset: groq/llama-3.1-8b-instant served by the simulator');
  });

  it('a config without extends replaces the catalog; the banner says so and its curl line names a model it has', async () => {
    const dir = tmp();
    const config = writeConfig(dir, {
      models: [
        {
          id: 'acme/only',
          pricing: { input: 1, output: 2 },
          endpoints: [{ provider: 'openai-compatible', upstreamModel: 'm', baseUrl: 'https://llm.acme.test/v1', apiKeyEnv: 'ACME_API_KEY' }],
        },
      ],
    });
    proc = startMain({ ...(await baseEnv(dir)), SVC_DEV_BOOTSTRAP: 'true', SVC_CONFIG: config });
    expect(await proc.waitFor(/curl -s .*\n.*\n\n/)).toBe(true);
    const banner = proc.stderr();
    expect(banner).toContain('only (the built-in models are left out: "extends": "builtin" keeps them)');
    expect(banner).toContain('guardrails  off\n');
    const { curl } = bannerFacts(banner);
    expect(curl).toContain('"model":"acme/only"');
    const { stdout } = await run('bash', ['-c', curl!]);
    expect((JSON.parse(stdout) as { object: string }).object).toBe('chat.completion');
  });

  it('without dev bootstrap, every unset credential variable is named in the banner and in a start-up warning', async () => {
    const dir = tmp();
    proc = startMain({ ...(await baseEnv(dir)), SVC_DEV_BOOTSTRAP: 'false', OPENAI_API_KEY: 'sk-test-set' });
    expect(await proc.waitFor('svc gateway ready')).toBe(true);
    expect(await proc.waitFor('secrets')).toBe(true);
    // Log lines leave through the asynchronous logger (batched, flushed within 200 ms).
    expect(await proc.waitFor('credential variable MISTRAL_API_KEY')).toBe(true);
    const banner = proc.stderr();
    expect(banner).toContain('credential  ANTHROPIC_API_KEY is unset: anthropic/claude-sonnet-4, anthropic/claude-3.5-haiku will be refused by the provider');
    expect(banner).toContain('credential  GEMINI_API_KEY is unset');
    expect(banner).toContain('credential  MISTRAL_API_KEY is unset');
    expect(banner).not.toContain('OPENAI_API_KEY is unset');
    expect(banner).not.toContain('dev key');
    const warnings = proc
      .stdout()
      .split('\n')
      .filter((l) => l.includes('credential variable'))
      .map((l) => JSON.parse(l) as { level: string; msg: string; endpoints: string });
    expect(warnings.map((w) => w.msg)).toEqual([
      'credential variable ANTHROPIC_API_KEY is unset: calls to its endpoints carry no credential',
      'credential variable GEMINI_API_KEY is unset: calls to its endpoints carry no credential',
      'credential variable MISTRAL_API_KEY is unset: calls to its endpoints carry no credential',
    ]);
    expect(warnings.every((w) => w.level === 'warn')).toBe(true);
    expect(warnings[0]!.endpoints).toBe('anthropic@api.anthropic.com');
  });

  it('hot reload refuses an invalid file in one log line and the old catalog keeps serving', async () => {
    const dir = tmp();
    const model = {
      id: 'acme/model',
      pricing: { input: 1, output: 2 },
      endpoints: [{ provider: 'openai', upstreamModel: 'm', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'ACME_API_KEY' }],
    };
    const path = writeConfig(dir, { extends: 'builtin', catalogReloadMs: 100, models: [model] });
    proc = startMain({ ...(await baseEnv(dir)), SVC_DEV_BOOTSTRAP: 'true', SVC_CONFIG: path });
    expect(await proc.waitFor(/curl -s .*\n.*\n\n/)).toBe(true);
    const { key } = bannerFacts(proc.stderr());
    const port = (await bannerPort(proc))!;
    const detail = (id: string): Promise<number> =>
      fetch(`http://127.0.0.1:${port}/v1/models/${id}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await detail('acme/model')).toBe(200);

    await new Promise((r) => setTimeout(r, 20)); // a distinct mtime
    writeConfig(dir, { extends: 'builtin', catalogReloadMs: 100, models: [{ ...model, id: 'acme/renamed', endpoints: [{ ...model.endpoints[0], provider: 'opneai' }] }] });
    expect(await proc.waitFor('catalog reload refused', 10_000)).toBe(true);
    const line = proc.stdout().split('\n').find((l) => l.includes('catalog reload refused'))!;
    expect((JSON.parse(line) as { msg: string }).msg).toMatch(
      /^catalog reload refused, the running catalog stays: models\[0\]\.endpoints\[0\]\.provider: unknown provider "opneai" \(did you mean "openai"\?\) \(known: [a-z, -]+\)$/,
    );
    expect(await detail('acme/model')).toBe(200);
    expect(await detail('acme/renamed')).toBe(404);

    writeConfig(dir, { extends: 'builtin', catalogReloadMs: 100, models: [{ ...model, id: 'acme/renamed' }] });
    expect(await proc.waitFor('catalog reloaded', 10_000)).toBe(true);
    expect(await detail('acme/renamed')).toBe(200);
    expect(await detail('gpt-4o-mini')).toBe(200);
  });
});

/** The inference port from the banner (`inference   http://127.0.0.1:<port>`). */
async function bannerPort(proc: MainProcess): Promise<number | null> {
  const m = /inference\s+http:\/\/[^:]+:(\d+)/.exec(proc.stderr());
  return m ? Number(m[1]) : null;
}
