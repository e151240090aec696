/**
 * `make run` without provider credentials: the simulator that stands in for the providers runs in a process of its
 * own (it used to share the gateway's event loop, so `make run` under load measured both), is started again if it
 * dies, and never outlives the gateway, even one killed with SIGKILL. The dev org's credit is simulated money while
 * every model is simulated: a load test spends it and is refilled instead of being refused with 402 for good.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const KEY = 'sk-svc-simproc-test-key-0123456789abcdefghijkl';
const tempDir = tempDirs('svc-simproc-');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Child processes of `ppid` whose command line names `script`. */
function childrenRunning(ppid: number, script: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(script)) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await what();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await what();
  }
  return v;
}

/** The start-up banner (written just after the listener opens, so it may trail /healthz by a moment). */
function banner(gw: GatewayProcess): Promise<string> {
  return until(() => gw.stderr(), (t) => t.includes('dev key'), 10_000);
}

async function chat(gw: GatewayProcess, content: string, model = 'gpt-4o-mini'): Promise<{ status: number; code: string | null }> {
  const res = await request(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content }] }),
  });
  const body = (await res.body.json()) as { error?: { code?: string } };
  return { status: res.statusCode, code: body.error?.code ?? null };
}

/** Requests the simulator has received, from its own stats. */
async function simRequests(simUrl: string): Promise<number> {
  const res = await request(`${simUrl}/_sim/stats`);
  return ((await res.body.json()) as { requests: number }).requests;
}

const SIM_LINE = /served by the built-in simulator at (http:\/\/127\.0\.0\.1:\d+), pid (\d+)/;

describe('dev simulator process', () => {
  it('serves from its own process, is restarted when it dies, and exits with the gateway (SIGKILL included)', { timeout: 60_000 }, async () => {
    const gw = await startGatewayProcess({ SVC_DATA_DIR: join(tempDir(), 'data'), SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY });
    const gwPid = gw.child.pid!;
    try {
      const line = SIM_LINE.exec(await banner(gw));
      expect(line).not.toBeNull();
      const simPid = Number(line![2]);
      expect(simPid).not.toBe(gwPid);
      expect(childrenRunning(gwPid, 'sim-child.js')).toEqual([simPid]);
      expect((await chat(gw, 'Hello')).status).toBe(200);

      process.kill(simPid, 'SIGKILL');
      // Requests while nothing listens fail and open the endpoint's circuit (a 30 s cooldown)...
      let failed = 0;
      const next = await until(
        async () => {
          if ((await chat(gw, 'Anyone there?')).status !== 200) failed++;
          return childrenRunning(gwPid, 'sim-child.js');
        },
        (p) => p.length === 1 && p[0] !== simPid,
        10_000,
      );
      expect(next).toHaveLength(1);
      expect(failed).toBeGreaterThan(3);
      // ...which the restart closes: the new process answers at the same port, which the catalog's URLs still name.
      const health = (): Promise<number> =>
        request(`${line![1]}/_sim/health`).then(
          async (r) => (await r.body.text(), r.statusCode),
          () => 0,
        );
      expect(await until(health, (s) => s === 200, 10_000)).toBe(200);
      expect((await chat(gw, 'Hello again')).status).toBe(200);

      gw.child.kill('SIGKILL');
      await gw.exited;
      expect(await until(() => alive(next[0]!), (a) => !a, 10_000)).toBe(false);
    } finally {
      await stopGatewayProcess(gw);
    }
  });

  it('a graceful stop takes the simulator with it', { timeout: 60_000 }, async () => {
    const gw = await startGatewayProcess({ SVC_DATA_DIR: join(tempDir(), 'data'), SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY });
    const [simPid] = childrenRunning(gw.child.pid!, 'sim-child.js');
    expect(simPid).toBeGreaterThan(0);
    await stopGatewayProcess(gw);
    expect(await until(() => alive(simPid!), (a) => !a, 10_000)).toBe(false);
  });

  it('a gateway that cannot start (its data directory is taken) says why, and leaves no simulator behind', { timeout: 60_000 }, async () => {
    const data = join(tempDir(), 'data');
    const first = await startGatewayProcess({ SVC_DATA_DIR: data, SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY });
    try {
      const mark = `simproc-${process.pid}-${Date.now()}`;
      const second = await startGatewayProcess({ SVC_DATA_DIR: data, SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY, SIMPROC_MARK: mark }, { waitHealthy: false });
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toMatch(/data directory .* is in use by another gateway/);
      const marked = (): number[] =>
        readdirSync('/proc')
          .filter((d) => /^\d+$/.test(d))
          .filter((d) => {
            try {
              return readFileSync(`/proc/${d}/environ`, 'utf8').includes(`SIMPROC_MARK=${mark}`);
            } catch {
              return false;
            }
          })
          .map(Number);
      expect(await until(marked, (p) => p.length === 0, 10_000)).toEqual([]);
      // Checked once the simulator is gone: it wrote to the same stderr (it used to crash on the closed channel).
      expect(second.stderr()).not.toMatch(/ERR_IPC|Error|\n\s+at /);
    } finally {
      await stopGatewayProcess(first);
    }
  });

  it('refills the dev credit a load test spent while every model is simulated', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ dev: { creditUsd: 0.5 } }));
    const gw = await startGatewayProcess({ SVC_DATA_DIR: join(dir, 'data'), SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY, SVC_CONFIG: config });
    try {
      const text = await banner(gw);
      expect(text).toContain('credit seeded: $0.5; refilled while every model is simulated');
      const simUrl = SIM_LINE.exec(text)![1]!;
      // ~12k input tokens to gpt-4o at $2.50 per million: ~$0.03 a request, so $0.50 lasts ~16 of them.
      const long = 'please summarise the quarterly ledger entries '.repeat(2_000);
      let refused = null;
      for (let i = 0; i < 60 && refused === null; i++) {
        const before = await simRequests(simUrl);
        const r = await chat(gw, long, 'gpt-4o');
        if (r.status !== 200) refused = { ...r, upstreamCalls: (await simRequests(simUrl)) - before };
      }
      expect(refused).toEqual({ status: 402, code: 'insufficient_credits', upstreamCalls: 0 });
      // The refill runs every 5 s: the same request is then served.
      const served = await until(() => chat(gw, long, 'gpt-4o'), (r) => r.status === 200, 15_000);
      expect(served.status).toBe(200);
    } finally {
      await stopGatewayProcess(gw);
    }
  });

  it('keeps the seed a cap when a model reaches a real provider', { timeout: 60_000 }, async () => {
    const gw = await startGatewayProcess({ SVC_DATA_DIR: join(tempDir(), 'data'), SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY, OPENAI_API_KEY: 'sk-not-simulated' });
    try {
      expect(await banner(gw)).toMatch(/credit seeded: \$100\)/);
      expect(gw.stderr()).not.toContain('refilled');
    } finally {
      await stopGatewayProcess(gw);
    }
  });
});
