/**
 * Instructions per request of the gateway, counted by valgrind's callgrind: a before/after measure that does not
 * depend on what else the machine is doing. On these shared 2-core machines CPU time per request moves by 10-20%
 * between rounds of the same build (bench/load/cpu.ts). Two runs of the same build with the defaults gave 0.877 and
 * 0.945 M instructions per request: V8's compilers (13.7% and 17.1%) move most, the rest 0.757 and 0.783 M. So compare
 * the column without the compilers, and trust a difference of more than ~4% there (or repeat the runs).
 *
 *   node dist/bench/load/instructions.js
 *
 * The gateway runs under callgrind (all its threads: the scoring worker, GC and compiler threads included) with
 * instrumentation off; WARM requests warm it up (the JIT tiers up over the first ~20,000, so short runs mostly count
 * the compiler), then instrumentation is switched on for N requests (autocannon, CONNECTIONS connections, a new prompt
 * per request, guardrails in monitor mode, the default store and log level) and the count is divided by N. Under
 * callgrind the process runs ~50x slower: the defaults take 3-4 minutes.
 *
 * BENCH_N (5000), BENCH_WARM (20000), BENCH_SUSTAIN_CONNECTIONS (16), BENCH_STREAM=1 for streamed requests,
 * BENCH_BASE=<checkout> to measure another build's dist/ in the same run (before/after), BENCH_TOP=<n> to print the
 * n functions with the most instructions, JIT-compiled JavaScript named from V8's perf map (--perf-basic-prof).
 * BENCH_PROXY=1 also counts the bare undici proxy (bench/load/proxy.ts, the sustained bench's reference) the same way,
 * and prints each build's ratio to it: the CPU target is a ratio to that proxy. BENCH_GUARD=enforce runs the
 * gateway with its default guardrail mode (every request waits for its scores) instead of monitor.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { freePort, guardModeFrom, waitForHttp, withSimulator, writeGatewayConfig } from './proc.js';


const N = Number(process.env.BENCH_N ?? 5000);
const WARM = Number(process.env.BENCH_WARM ?? 20000);
const CONNECTIONS = Number(process.env.BENCH_SUSTAIN_CONNECTIONS ?? 16);
const STREAM = Boolean(process.env.BENCH_STREAM);
const TOP = Number(process.env.BENCH_TOP ?? 0);
const PROXY = Boolean(process.env.BENCH_PROXY);
const GUARD_MODE = guardModeFrom('BENCH_GUARD');
/** What the proxy asks the simulator for: the model the gateway routes gpt-4o-mini to (as the sustained bench). */
const UPSTREAM_MODEL = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
const KEY = 'sk-svc-bench-0000000000000000000000';

interface Count {
  build: string;
  perRequest: number;
  compilerShare: number;
  top: [string, number][];
}

/** Functions of V8's optimising and baseline compilers and parser (their share is warm-up, or code thrown away). */
const COMPILER = /compiler::|Compil|Maglev|aseline|Zone|RegisterAlloc|Parser|Scanner|Bytecode/;

/** The process under test: the gateway of a build, or the bare proxy (started as the sustained bench starts it). */
type Target = { kind: 'gateway'; root: string } | { kind: 'proxy'; root: string };

async function count(target: Target, simUrl: string, dir: string): Promise<Count> {
  const port = await freePort();
  const out = join(dir, `callgrind-${port}`);
  const perf = TOP ? ['--perf-basic-prof'] : [];
  let args: string[];
  let env: NodeJS.ProcessEnv = process.env;
  if (target.kind === 'gateway') {
    const config = join(dir, `config-${port}.json`);
    // Under callgrind the process runs ~50x slower: an enforcing request would miss the default scoring deadline.
    writeGatewayConfig(config, simUrl, { guardrails: { mode: GUARD_MODE, timeoutMs: 60_000 } });
    args = [...GATEWAY_NODE_FLAGS, ...perf, join(target.root, 'dist/src/main.js')];
    env = { ...env, SVC_CONFIG: config, SVC_PORT: String(port), SVC_DASHBOARD_PORT: '0', SVC_DEV_KEY: KEY, SVC_DEV_BOOTSTRAP: 'true', SVC_DATA_DIR: join(dir, `data-${port}`) };
  } else {
    args = [...perf, join(target.root, 'dist/bench/load/proxy.js'), String(port), simUrl];
  }
  const gw = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, ...args], { env, stdio: 'ignore' });
  const ready = target.kind === 'gateway' ? `http://127.0.0.1:${port}/healthz` : `http://127.0.0.1:${port}/_sim/health`;
  const model = target.kind === 'gateway' ? 'gpt-4o-mini' : UPSTREAM_MODEL;
  try {
    await waitForHttp(ready, 600_000);
    let n = 0;
    const load = (amount: number): Promise<autocannon.Result> =>
      new Promise((resolve, reject) => {
        autocannon(
          {
            url: `http://127.0.0.1:${port}/v1/chat/completions`,
            method: 'POST',
            connections: CONNECTIONS,
            amount,
            timeout: 120,
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            requests: [{ setupRequest: (r) => ({ ...r, body: JSON.stringify({ model, stream: STREAM, messages: [{ role: 'user', content: `Say hello number ${n++} to the team please.` }] }) }) }],
          },
          (err, res) => (err ? reject(err) : resolve(res)),
        );
      });
    await load(WARM);
    execFileSync('callgrind_control', ['-i', 'on', String(gw.pid)], { stdio: 'ignore' });
    const res = await load(N);
    execFileSync('callgrind_control', ['-i', 'off', String(gw.pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-d', String(gw.pid)], { stdio: 'ignore' });
    if (res.non2xx > 0 || res.errors > 0) throw new Error(`${target.kind} ${target.root}: ${res.non2xx} non-2xx, ${res.errors} errors`);
    // The dump requested above is written as `<out file>.1`.
    const dump = readdirSync(dir).find((f) => f.startsWith(`callgrind-${port}.`));
    if (dump === undefined) throw new Error('callgrind wrote no dump');
    const byFn = functionCounts(join(dir, dump), TOP ? `/tmp/perf-${gw.pid}.map` : null);
    let total = 0;
    let compiler = 0;
    for (const [fn, ir] of byFn) {
      total += ir;
      if (COMPILER.test(fn)) compiler += ir;
    }
    const top = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP);
    return { build: target.kind === 'proxy' ? 'bare undici proxy' : target.root, perRequest: total / N, compilerShare: compiler / total, top };
  } finally {
    gw.kill('SIGKILL');
  }
}

/** Instructions per function (self) from a callgrind dump; JIT code named from a perf map when given. */
function functionCounts(dump: string, perfMap: string | null): Map<string, number> {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', dump], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const jit = perfMap !== null && existsSync(perfMap) ? readPerfMap(perfMap) : [];
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (!m || m[2]!.includes('PROGRAM TOTALS')) continue;
    const ir = Number(m[1]!.replace(/,/g, ''));
    const addr = /\?\?\?:0x([0-9a-f]+)/.exec(m[2]!);
    const name = (addr ? symbolAt(jit, parseInt(addr[1]!, 16)) : null) ?? m[2]!.replace(/\s*\[[^\]]*\]\s*$/, '');
    out.set(name, (out.get(name) ?? 0) + ir);
  }
  return out;
}

type PerfEntry = [start: number, size: number, name: string];

function readPerfMap(path: string): PerfEntry[] {
  const entries: PerfEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) entries.push([parseInt(m[1]!, 16), parseInt(m[2]!, 16), m[3]!]);
  }
  return entries.sort((a, b) => a[0] - b[0]);
}

function symbolAt(entries: PerfEntry[], addr: number): string | null {
  let lo = 0;
  let hi = entries.length - 1;
  let best: PerfEntry | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]![0] <= addr) {
      best = entries[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best !== null && addr < best[0] + best[1] ? best[2] : null;
}

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-instr-'));
  await withSimulator(root, async (simUrl) => {
    const builds = [...(process.env.BENCH_BASE ?? '').split(',').filter(Boolean), root];
    process.stdout.write(`| build | ${STREAM ? 'stream' : 'non-stream'} instructions per request (M) | of which V8's compilers | without the compilers (M) |\n|---|---:|---:|---:|\n`);
    const targets: Target[] = [...(PROXY ? [{ kind: 'proxy' as const, root }] : []), ...builds.map((b) => ({ kind: 'gateway' as const, root: b }))];
    let proxy: number | null = null;
    for (const t of targets) {
      const c = await count(t, simUrl, dir);
      const rest = (c.perRequest * (1 - c.compilerShare)) / 1e6;
      if (t.kind === 'proxy') proxy = c.perRequest;
      const ratio = proxy === null || t.kind === 'proxy' ? '' : ` (${(c.perRequest / proxy).toFixed(2)}x the proxy)`;
      process.stdout.write(`| ${c.build} | ${(c.perRequest / 1e6).toFixed(3)}${ratio} | ${(100 * c.compilerShare).toFixed(1)}% | ${rest.toFixed(3)} |\n`);
      for (const [fn, ir] of c.top) process.stdout.write(`    ${((100 * ir) / (c.perRequest * N)).toFixed(2).padStart(6)}%  ${fn.slice(0, 140)}\n`);
    }
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`instructions bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
