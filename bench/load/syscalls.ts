/**
 * System calls per request of the gateway and of the bare undici proxy (bench/load/proxy.ts), counted by strace over
 * all threads of the process under test: a measure of the kernel work a request costs, which instruction counts
 * (bench/load/instructions.ts) do not see. After BENCH_WARM (5,000) requests, strace -c -f attaches and BENCH_N
 * (3,000) more are sent at BENCH_SUSTAIN_CONNECTIONS (16), a new prompt each; the table divides each call's count by
 * BENCH_N. The gateway runs with the default store and BENCH_GUARD (enforce, the default mode; or monitor). Needs
 * strace; strace slows the process, so read counts from it, not times.
 *
 *   node dist/bench/load/syscalls.js
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { freePort, guardModeFrom, startNode, stopNode, waitForHttp, withSimulator, writeGatewayConfig } from './proc.js';

const N = Number(process.env.BENCH_N ?? 3000);
const WARM = Number(process.env.BENCH_WARM ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_SUSTAIN_CONNECTIONS ?? 16);
const GUARD_MODE = process.env.BENCH_GUARD === undefined ? 'enforce' : guardModeFrom('BENCH_GUARD');
const KEY = 'sk-svc-bench-0000000000000000000000';
const UPSTREAM_MODEL = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;

/** Calls per request by name, for the process started by `start` on `port`. */
async function count(kind: 'proxy' | 'gateway', simUrl: string, dir: string): Promise<Map<string, number>> {
  const root = projectRoot();
  const port = await freePort();
  let child: ChildProcess;
  if (kind === 'gateway') {
    const config = join(dir, 'config.json');
    writeGatewayConfig(config, simUrl, { guardrails: { mode: GUARD_MODE } });
    child = startNode([...GATEWAY_NODE_FLAGS, join(root, 'dist/src/main.js')], {
      SVC_CONFIG: config,
      SVC_PORT: String(port),
      SVC_DASHBOARD_PORT: '0',
      SVC_DEV_KEY: KEY,
      SVC_DEV_BOOTSTRAP: 'true',
      SVC_DATA_DIR: join(dir, 'data'),
    });
  } else {
    child = startNode([join(root, 'dist/bench/load/proxy.js'), String(port), simUrl], {});
  }
  try {
    await waitForHttp(kind === 'gateway' ? `http://127.0.0.1:${port}/healthz` : `http://127.0.0.1:${port}/_sim/health`);
    let n = 0;
    const model = kind === 'gateway' ? 'gpt-4o-mini' : UPSTREAM_MODEL;
    const load = async (amount: number): Promise<void> => {
      const r = await autocannon({
        url: `http://127.0.0.1:${port}/v1/chat/completions`,
        method: 'POST',
        connections: CONNECTIONS,
        amount,
        timeout: 60,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ model, messages: [{ role: 'user', content: `Say hello number ${n++} to the team please.` }] }) }) }],
      });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${kind}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    };
    await load(WARM);
    const out = join(dir, `strace-${kind}.txt`);
    const strace = spawn('strace', ['-c', '-f', '-o', out, '-p', String(child.pid)], { stdio: 'ignore' });
    const exited = new Promise((resolve) => strace.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // attached to every thread
    await load(N);
    strace.kill('SIGINT');
    await exited;
    const calls = new Map<string, number>();
    // strace -c rows: % time, seconds, usecs/call, calls, [errors,] syscall
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z_0-9]+)$/.exec(line);
      if (m && m[2] !== 'total') calls.set(m[2]!, Number(m[1]) / N);
    }
    return calls;
  } finally {
    await stopNode(child);
  }
}

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-syscalls-'));
  await withSimulator(root, async (simUrl) => {
    const proxy = await count('proxy', simUrl, dir);
    const gateway = await count('gateway', simUrl, dir);
    const names = [...new Set([...proxy.keys(), ...gateway.keys()])].sort((a, b) => (gateway.get(b) ?? 0) - (gateway.get(a) ?? 0));
    const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(`| system call (per non-stream request, ${N} requests, guardrails ${GUARD_MODE}) | bare proxy | gateway |\n|---|---:|---:|\n`);
    for (const name of names) process.stdout.write(`| ${name} | ${(proxy.get(name) ?? 0).toFixed(2)} | ${(gateway.get(name) ?? 0).toFixed(2)} |\n`);
    process.stdout.write(`| **all** | ${sum(proxy).toFixed(2)} | ${sum(gateway).toFixed(2)} |\n`);
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`syscalls bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
