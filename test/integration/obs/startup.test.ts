/**
 * Start-up refusals and the process model, on the real `dist/src/main.js`: a busy port, the uWS pure-JS
 * fallback (simulated with the library's own UWS_USE_FALLBACK switch, which goes through its real loader),
 * an unreachable Redis, bad SVC_PROCESSES values; and SVC_PROCESSES=2 serving one port from two processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/pool/pool.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { freePort } from '../../helpers/ports.js';

const MAIN = join(projectRoot(), 'dist/src/main.js');
const DEV_KEY = 'sk-svc-startup-test-00000000000000000000';


function gatewayEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_HOST: '127.0.0.1', SVC_DASHBOARD_PORT: '0', SVC_GUARDRAILS_MODE: 'off', SVC_LOG_LEVEL: 'error', SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: DEV_KEY, ...extra };
  for (const k of ['SVC_REDIS_URL', 'SVC_PROCESSES', 'UWS_USE_FALLBACK', 'SVC_CONFIG'] as const) if (!(k in extra)) delete env[k];
  return env;
}

/** Runs main.js to its exit; resolves with the exit code and stderr. */
function runToExit(extra: Record<string, string>, timeoutMs = 20_000): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], { env: gatewayEnv(extra), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.js did not exit within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** The svc line of stderr: exactly one, no stack trace. */
function svcLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('svc: '));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

async function healthPid(url: string): Promise<number> {
  const res = await request(`${url}/healthz`, { reset: true }); // a new connection per call
  expect(res.statusCode).toBe(200);
  return ((await res.body.json()) as { pid: number }).pid;
}

describe('start-up refusals', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  it('refuses a port another gateway listens on (uWS would share it via SO_REUSEPORT), and says what to do', async () => {
    const port = new URL(t.url).port;
    const { code, stderr } = await runToExit({ SVC_PORT: port });
    expect(code).toBe(1);
    const line = svcLine(stderr);
    expect(line).toContain(`inference port 127.0.0.1:${port} is already in use`);
    expect(line).toContain('SVC_PORT');
    expect(line).toContain('SVC_PROCESSES=N');
    // The first gateway still answers every connection.
    for (let i = 0; i < 8; i++) expect(await healthPid(t.url)).toBe(process.pid);
  });

  it('refuses a busy dashboard port too', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const dashPort = (busy.address() as { port: number }).port;
    try {
      const { code, stderr } = await runToExit({ SVC_PORT: String(await freePort()), SVC_DASHBOARD_PORT: String(dashPort) });
      expect(code).toBe(1);
      expect(svcLine(stderr)).toContain(`dashboard port 127.0.0.1:${dashPort} is already in use`);
    } finally {
      busy.close();
    }
  });

  it('refuses to run on the pure-JS fallback when the native uWS binding does not load', async () => {
    const { code, stderr } = await runToExit({ SVC_PORT: '0', UWS_USE_FALLBACK: '1' });
    expect(code).toBe(1);
    const line = svcLine(stderr);
    expect(line).toContain('uWebSockets.js did not load its native binding');
    expect(line).toContain(`Node ${process.version}`);
    expect(line).toContain('unset it');
  });

  it('an unreachable Redis: one line naming the URL and what to do, no stack trace', async () => {
    const closed = await freePort();
    const { code, stderr } = await runToExit({ SVC_PORT: '0', SVC_REDIS_URL: `redis://127.0.0.1:${closed}` });
    expect(code).toBe(1);
    const line = svcLine(stderr);
    expect(line).toMatch(new RegExp(`^svc: cannot reach Redis at redis://127\\.0\\.0\\.1:${closed} \\(.+\\): start Redis there, or set SVC_REDIS_URL`));
  });

  it('the Redis password is not printed', async () => {
    const closed = await freePort();
    const { stderr } = await runToExit({ SVC_PORT: '0', SVC_REDIS_URL: `redis://user:hunter2@127.0.0.1:${closed}` });
    expect(svcLine(stderr)).toContain(`redis://***@127.0.0.1:${closed}`);
    expect(stderr).not.toContain('hunter2');
  });

  it.each([
    [{ SVC_PROCESSES: '2' }, 'SVC_PROCESSES=2 needs the Redis store'],
    [{ SVC_PROCESSES: 'two' }, 'SVC_PROCESSES must be an integer from 1 to 64'],
    [{ SVC_PROCESSES: '0' }, 'SVC_PROCESSES must be an integer from 1 to 64'],
  ])('refuses %o', async (extra, message) => {
    const { code, stderr } = await runToExit({ SVC_PORT: '0', ...extra });
    expect(code).toBe(1);
    expect(svcLine(stderr)).toContain(message);
  });
});

describe('SVC_PROCESSES=2 on Redis: two processes, one port', () => {
  let redis: RedisServer;
  let parent: ChildProcess;
  let url: string;
  let port: number;
  let stderr = '';

  beforeAll(async () => {
    redis = await startRedisServer();
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    parent = spawn(process.execPath, [MAIN], {
      env: gatewayEnv({ SVC_PROCESSES: '2', SVC_PORT: String(port), SVC_REDIS_URL: redis.url }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    parent.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; !stderr.includes('2 gateway processes share'); i++) {
      if (i === 300 || parent.exitCode !== null) throw new Error(`SVC_PROCESSES=2 did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    if (parent && parent.exitCode === null) {
      const exited = new Promise((r) => parent.once('exit', r));
      parent.kill('SIGTERM');
      await exited;
    }
    await redis?.stop();
  });

  it('both processes answer on the one port, and both serve inference on the shared store', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 40 && pids.size < 2; i++) pids.add(await healthPid(url));
    expect(pids.size).toBe(2);
    expect(pids.has(parent.pid!)).toBe(false); // the parent only supervises
    let ok = 0;
    for (let i = 0; i < 12; i++) {
      const res = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        reset: true,
        headers: { authorization: `Bearer ${DEV_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
      });
      await res.body.text();
      if (res.statusCode === 200) ok++;
    }
    expect(ok).toBe(12);
  });

  it('a further gateway on that port is refused while the two run', async () => {
    const { code, stderr: err } = await runToExit({ SVC_PORT: String(port), SVC_REDIS_URL: redis.url });
    expect(code).toBe(1);
    expect(svcLine(err)).toContain('is already in use');
  });

  it('a process that dies is restarted, and the port is served by two processes again', async () => {
    const before = new Set<number>();
    for (let i = 0; i < 40 && before.size < 2; i++) before.add(await healthPid(url));
    const [victim, survivor] = [...before] as [number, number];
    process.kill(victim, 'SIGKILL');
    const after = new Set<number>();
    for (let i = 0; i < 200 && after.size < 2; i++) {
      try {
        after.add(await healthPid(url));
      } catch {
        /* a connection the kernel still hashed to the dead listener */
      }
      if (after.size < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(after.has(survivor)).toBe(true);
    expect(after.has(victim)).toBe(false);
    expect(after.size).toBe(2);
    expect(stderr).toMatch(new RegExp(`gateway process \\d \\(pid ${victim}\\) exited \\(SIGKILL\\); restarting it`));
  }, 40_000);

  it('SIGTERM to the parent stops both processes and frees the port', async () => {
    const exited = new Promise<number | null>((r) => parent.once('exit', (c) => r(c)));
    parent.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(request(`${url}/healthz`, { reset: true })).rejects.toThrow();
  }, 20_000);
});
