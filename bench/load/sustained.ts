/**
 * `make bench`, sustained rows (appended to bench/results/latest.md after the short rows of run.ts):
 *
 * - fixed rate: BENCH_RATE req/s (500) for BENCH_SECONDS (60) with latency measured from each request's
 *   intended send time (an open-loop scheduler on undici, so a stalled server is not hidden by a client that
 *   waits: no coordinated omission), p50 / p99 / p99.9 and added vs direct;
 * - closed loop: 64 connections (BENCH_SUSTAIN_CONNECTIONS) for BENCH_SECONDS with autocannon, req/s and
 *   CPU ms per request of the process under test;
 * - RSS at the start and end of each row and the peak (VmHWM) of the process;
 *
 * for non-stream and stream, directly to the simulator, through a bare undici proxy (bench/load/proxy.ts,
 * the reference, measured in the same run), and through the gateway on the embedded store and on Redis
 * (default log level, guardrails in monitor mode). Then two tables at BENCH_TABLE_SECONDS (default
 * min(BENCH_SECONDS, 20)): throughput for SVC_PROCESSES=1 and 2 on Redis, and piscina worker counts against
 * throughput and added p99 at the fixed rate.
 *
 * BENCH_TARGETS (comma-separated of direct, proxy, embedded, redis, processes, workers; default all) runs a
 * subset (without direct, the added columns are left empty), for before/after measurements of one change; BENCH_OUT is the
 * file the table is appended to (default bench/results/latest.md, empty for none); BENCH_GATEWAY_NODE_OPTIONS is the gateway's
 * NODE_OPTIONS (for example a memory probe preloaded with --import). The gateway runs as an operator runs it:
 * upstreams in the config (the separate simulator process), no in-process simulator.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_ALIASES, DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { childPids, procStats, startNode, stopNode, waitForHttp } from './proc.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TABLE_SECONDS = Number(process.env.BENCH_TABLE_SECONDS ?? Math.min(SECONDS, 20));
const RATE = Number(process.env.BENCH_RATE ?? 500);
const CONNECTIONS = Number(process.env.BENCH_SUSTAIN_CONNECTIONS ?? 64);
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const TARGETS = new Set((process.env.BENCH_TARGETS ?? 'direct,proxy,embedded,redis,processes,workers').split(','));
const KEY = 'sk-svc-bench-0000000000000000000000';
const PROMPT = [{ role: 'user', content: 'Benchmark prompt: tell me something short about gateways.' }];
const OUT = join(projectRoot(), 'bench/results/latest.md');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface FixedResult {
  p50: number;
  p99: number;
  p999: number;
  errors: number;
  /** Failed requests by HTTP status ('conn' for a connection error). */
  byStatus: Map<string, number>;
  achievedRps: number;
  /** p99 of how late the generator dispatched a request after its intended time (its own saturation). */
  lagP99: number;
}

/** `3 (503: 2, conn: 1)`, or `0`. */
function errorText(r: FixedResult): string {
  if (r.errors === 0) return '0';
  return `${r.errors} (${[...r.byStatus].map(([k, v]) => `${k}: ${v}`).join(', ')})`;
}

/**
 * Open-loop load: request i is due at t0 + i/rate and its latency runs from that instant to the last byte
 * of the response, however late the scheduler or a busy connection made the actual send.
 */
async function fixedRate(url: string, headers: Record<string, string>, body: string, rate: number, seconds: number): Promise<FixedResult> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 256, keepAliveTimeout: 60_000 });
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  const lags: number[] = [];
  const inflight: Promise<void>[] = [];
  let errors = 0;
  let sent = 0;
  const byStatus = new Map<string, number>();
  const fail = (k: string): void => {
    errors++;
    byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
  };
  const t0 = performance.now() + 10;
  const one = async (intended: number): Promise<void> => {
    lags.push(performance.now() - intended);
    try {
      const res = await pool.request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      for await (const chunk of res.body) void chunk;
      if (res.statusCode !== 200) fail(String(res.statusCode));
    } catch {
      fail('conn');
    }
    latencies.push(performance.now() - intended);
  };
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      while (sent < total && t0 + (sent * 1000) / rate <= now) {
        inflight.push(one(t0 + (sent * 1000) / rate));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, 10);
  });
  await Promise.all(inflight);
  const elapsed = (performance.now() - t0) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return { lagP99: pct(lags, 99), p50: pct(latencies, 50), p99: pct(latencies, 99), p999: pct(latencies, 99.9), errors, byStatus, achievedRps: total / elapsed };
}

async function closedLoop(url: string, headers: Record<string, string>, body: string, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  return autocannon({ url, method: 'POST', connections, duration: seconds, headers: { 'content-type': 'application/json', ...headers }, body });
}

/** CPU (ms) and RSS of the process under test; for a SVC_PROCESSES supervisor, summed over its children. */
function stats(pid: number | null): { cpuMs: number; rssMiB: number; peakMiB: number } | null {
  if (pid === null) return null;
  const kids = childPids(pid).filter((c) => {
    try {
      procStats(c);
      return true;
    } catch {
      return false;
    }
  });
  const pids = kids.length ? kids : [pid];
  return pids.map(procStats).reduce((a, b) => ({ cpuMs: a.cpuMs + b.cpuMs, rssMiB: a.rssMiB + b.rssMiB, peakMiB: a.peakMiB + b.peakMiB }));
}

interface Target {
  name: string;
  url: string;
  pid: number | null;
  headers: Record<string, string>;
  model: (stream: boolean) => string;
}

interface SustainedRow {
  target: string;
  mode: string;
  fixed: FixedResult;
  rps: number;
  closedErrors: number;
  cpuMsPerReq: number | null;
  rssStart: number | null;
  rssEnd: number | null;
  peak: number | null;
}

function payload(model: string, stream: boolean): string {
  return JSON.stringify({ model, messages: PROMPT, max_tokens: 16, stream });
}

async function measure(t: Target, stream: boolean): Promise<SustainedRow> {
  const url = `${t.url}/v1/chat/completions`;
  const body = payload(t.model(stream), stream);
  await closedLoop(url, t.headers, body, Math.min(2, SECONDS), 16); // warm-up (JIT, pools, caches)
  const s0 = stats(t.pid);
  const fixed = await fixedRate(url, t.headers, body, RATE, SECONDS);
  const c0 = stats(t.pid);
  const closed = await closedLoop(url, t.headers, body, SECONDS);
  const s1 = stats(t.pid);
  return {
    target: t.name,
    mode: stream ? 'stream' : 'non-stream',
    fixed,
    rps: closed.requests.average,
    closedErrors: closed.errors + closed.non2xx,
    cpuMsPerReq: c0 && s1 ? (s1.cpuMs - c0.cpuMs) / Math.max(1, closed.requests.total) : null,
    rssStart: s0?.rssMiB ?? null,
    rssEnd: s1?.rssMiB ?? null,
    peak: s1?.peakMiB ?? null,
  };
}

interface GatewayRun {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

async function startGateway(dir: string, simUrl: string, opts: { redisUrl?: string; workers?: number; processes?: number }): Promise<GatewayRun> {
  const port = await freePort();
  const configPath = join(dir, `config-${port}.json`);
  writeFileSync(
    configPath,
    JSON.stringify({
      host: '127.0.0.1',
      models: simulatedCatalog(DEMO_CATALOG, {}, simUrl).models,
      aliases: DEMO_ALIASES,
      store: { kind: 'memory', snapshotPath: null },
      guardrails: { mode: 'monitor' },
      dev: { creditUsd: 1_000_000 },
      ...(opts.workers ? { workers: { min: opts.workers, max: opts.workers } } : {}),
    }),
  );
  const child = startNode([join(projectRoot(), 'dist/src/main.js')], {
    SVC_CONFIG: configPath,
    SVC_PORT: String(port),
    SVC_DASHBOARD_PORT: '0',
    SVC_DEV_KEY: KEY,
    SVC_DEV_BOOTSTRAP: 'true',
    SVC_DATA_DIR: dir,
    SVC_LOG_LEVEL: undefined,
    SVC_GUARDRAILS_MODE: undefined,
    SVC_REDIS_URL: opts.redisUrl,
    SVC_PROCESSES: opts.processes ? String(opts.processes) : undefined,
    NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS,
  });
  // The banner names the models the in-process dev simulator serves: none may be (it would add its own
  // tokenizer, ~70 MiB, and its CPU to the process under test). The bench's upstream is the separate simulator.
  let banner = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (banner.length < 16_384) banner += d.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, 60_000);
  const bannerLine = /models\s+\d+ \((\d+) served by the built-in simulator/;
  for (let i = 0; i < 100 && !bannerLine.test(banner); i++) await new Promise((r) => setTimeout(r, 100));
  const inProcess = bannerLine.exec(banner);
  if (!inProcess) throw new Error('the gateway printed no models line: cannot tell whether it runs the in-process simulator');
  if (inProcess[1] !== '0') throw new Error(`the gateway under test runs the in-process simulator: ${inProcess[0]}`);
  if ((opts.processes ?? 1) > 1) {
    // Children start one after the other: wait until every one answers.
    const until = Date.now() + 60_000;
    while (childPids(child.pid!).length < opts.processes! || !(await answersFrom(url, opts.processes!))) {
      if (Date.now() > until) throw new Error(`SVC_PROCESSES=${opts.processes} did not come up`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { url, pid: child.pid!, stop: () => stopNode(child) };
}

async function answersFrom(url: string, n: number): Promise<boolean> {
  const pids = new Set<number>();
  for (let i = 0; i < 10 * n && pids.size < n; i++) {
    const res = await fetch(`${url}/healthz`, { headers: { connection: 'close' } });
    pids.add(((await res.json()) as { pid: number }).pid);
  }
  return pids.size >= n;
}

async function startRedis(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(true)); // the port is taken: redis listens
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
    });
    if (up) break;
    if (Date.now() > until || proc.exitCode !== null) throw new Error('redis-server did not start (is it installed? `make redis`)');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopNode(proc) };
}

const f1 = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : x.toFixed(1));
const f2 = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : x.toFixed(2));
const f3 = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : x.toFixed(3));

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-sustained-'));
  const simPort = await freePort();
  const proxyPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(simPort)], {});
  const proxy = startNode([join(root, 'dist/bench/load/proxy.js'), String(proxyPort), simUrl], {});
  const redis = await startRedis(dir);
  const upstreamModel = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
  const auth = { authorization: `Bearer ${KEY}` };
  const log = (s: string): void => void process.stderr.write(`[sustained] ${s}\n`);
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    await waitForHttp(`http://127.0.0.1:${proxyPort}/_sim/health`);
    const rows: SustainedRow[] = [];
    const run = async (t: Target): Promise<void> => {
      for (const stream of [false, true]) {
        log(`${t.name} ${stream ? 'stream' : 'non-stream'}`);
        rows.push(await measure(t, stream));
      }
    };
    if (TARGETS.has('direct')) await run({ name: 'direct (simulator)', url: simUrl, pid: null, headers: {}, model: () => upstreamModel });
    if (TARGETS.has('proxy')) await run({ name: 'bare undici proxy', url: `http://127.0.0.1:${proxyPort}`, pid: proxy.pid!, headers: {}, model: () => upstreamModel });
    for (const [name, redisUrl] of [
      ['gateway, embedded store', undefined],
      ['gateway, Redis', redis.url],
    ] as const) {
      if (!TARGETS.has(redisUrl ? 'redis' : 'embedded')) continue;
      const gw = await startGateway(dir, simUrl, { redisUrl });
      try {
        await run({ name, url: gw.url, pid: gw.pid, headers: auth, model: () => 'gpt-4o-mini' });
      } finally {
        await gw.stop();
      }
    }

    // SVC_PROCESSES on Redis: closed-loop throughput, non-stream.
    const procRows: string[] = [];
    for (const n of TARGETS.has('processes') ? [1, 2] : []) {
      log(`SVC_PROCESSES=${n}`);
      const gw = await startGateway(dir, simUrl, { redisUrl: redis.url, processes: n });
      try {
        const body = payload('gpt-4o-mini', false);
        const url = `${gw.url}/v1/chat/completions`;
        await closedLoop(url, auth, body, Math.min(2, TABLE_SECONDS), 16);
        const a = stats(gw.pid)!;
        const r = await closedLoop(url, auth, body, TABLE_SECONDS);
        const b = stats(gw.pid)!;
        procRows.push(`| ${n} | ${Math.round(r.requests.average)} | ${r.latency.p50} / ${r.latency.p99} | ${r.errors + r.non2xx} | ${f3((b.cpuMs - a.cpuMs) / Math.max(1, r.requests.total))} | ${f1(b.rssMiB)} |`);
      } finally {
        await gw.stop();
      }
    }

    // Piscina workers (guardrail scoring in monitor mode runs on the pool), embedded store, non-stream.
    const direct = rows.find((r) => r.target.startsWith('direct') && r.mode === 'non-stream');
    const workerRows: string[] = [];
    for (const w of TARGETS.has('workers') ? WORKER_COUNTS : []) {
      log(`workers=${w}`);
      const gw = await startGateway(dir, simUrl, { workers: w });
      try {
        const body = payload('gpt-4o-mini', false);
        const url = `${gw.url}/v1/chat/completions`;
        await closedLoop(url, auth, body, Math.min(2, TABLE_SECONDS), 16);
        const fixed = await fixedRate(url, auth, body, RATE, TABLE_SECONDS);
        const r = await closedLoop(url, auth, body, TABLE_SECONDS);
        workerRows.push(`| ${w} | ${Math.round(r.requests.average)} | ${f2(fixed.p99)} | ${f2(direct ? fixed.p99 - direct.fixed.p99 : null)} | ${errorText(fixed)} / ${r.errors + r.non2xx} |`);
      } finally {
        await gw.stop();
      }
    }

    const lines = [
      '',
      `## Sustained load (${new Date().toISOString().slice(0, 16)}Z, ${availableParallelism()} cores shared by load generator, simulator and the process under test)`,
      '',
      `Fixed rate: ${RATE} req/s for ${SECONDS} s, latency from the intended send time to the last byte (open loop, no coordinated omission). ` +
        `Closed loop: ${CONNECTIONS} connections for ${SECONDS} s (autocannon). Gateway at the default log level (info, JSON to stdout), guardrails in monitor mode. ` +
        `CPU and RSS are the process under test (the simulator's share is not counted); peak = VmHWM of that process. ` +
        `Generator lag = how late the load generator itself dispatched requests: when it is not near 0, the machine could not drive ${RATE} req/s and the latencies measure the machine, not the target.`,
      '',
      `| target | mode | fixed p50 ms | p99 ms | p99.9 ms | added p50 / p99 / p99.9 ms | fixed errors | achieved req/s | generator lag p99 ms | closed-loop req/s | closed errors | CPU ms/req | RSS start / end / peak MiB |`,
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const r of rows) {
      const base = rows.find((x) => x.target.startsWith('direct') && x.mode === r.mode);
      const added = r === base || base === undefined ? '-' : `${f2(r.fixed.p50 - base.fixed.p50)} / ${f2(r.fixed.p99 - base.fixed.p99)} / ${f2(r.fixed.p999 - base.fixed.p999)}`;
      lines.push(
        `| ${r.target} | ${r.mode} | ${f2(r.fixed.p50)} | ${f2(r.fixed.p99)} | ${f2(r.fixed.p999)} | ${added} | ${errorText(r.fixed)} | ${Math.round(r.fixed.achievedRps)} | ${f2(r.fixed.lagP99)} | ${Math.round(r.rps)} | ${r.closedErrors} | ${f3(r.cpuMsPerReq)} | ${f1(r.rssStart)} / ${f1(r.rssEnd)} / ${f1(r.peak)} |`,
      );
    }
    lines.push(
      '',
      `### Processes (SVC_PROCESSES on Redis, non-stream, ${CONNECTIONS} connections, ${TABLE_SECONDS} s; CPU and RSS summed over the processes)`,
      '',
      '| processes | req/s | p50 / p99 ms | errors | CPU ms/req | RSS MiB |',
      '|---|---|---|---|---|---|',
      ...procRows,
      '',
      `### Piscina workers (embedded store, non-stream; throughput: ${CONNECTIONS} connections, ${TABLE_SECONDS} s; p99: ${RATE} req/s fixed rate, ${TABLE_SECONDS} s)`,
      '',
      '| workers | req/s | fixed-rate p99 ms | added p99 ms (vs direct) | errors fixed / closed |',
      '|---|---|---|---|---|',
      ...workerRows,
      '',
    );
    const text = lines.join('\n');
    process.stdout.write(text);
    if (process.env.BENCH_OUT !== '') appendFileSync(process.env.BENCH_OUT ?? OUT, text);
  } finally {
    await stopNode(proxy);
    await stopNode(sim);
    await redis.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`sustained bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
