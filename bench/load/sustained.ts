/**
 * `make bench`, sustained rows (appended to bench/results/latest.md after the short rows of run.ts):
 *
 * - fixed rate: BENCH_RATE req/s (500) for BENCH_SECONDS (60) with latency measured from each request's
 *   intended send time (an open-loop scheduler on undici, so a stalled server is not hidden by a client that
 *   waits: no coordinated omission), p50 / p99 / p99.9 and added vs direct and vs the bare proxy; every target
 *   runs for the whole table and the rows are measured in BENCH_ROUNDS (6) interleaved rounds (fixedRounds);
 * - closed loop: 64 connections (BENCH_SUSTAIN_CONNECTIONS) for BENCH_SECONDS with autocannon, req/s and
 *   CPU ms per request of the process under test;
 * - RSS at the start and end of each row and the peak (VmHWM) of the process;
 * - the host's own stalls before and after the rows (BENCH_HOST_SECONDS, 10; fixed-rate.ts hostStalls);
 *
 * for non-stream and stream, directly to the simulator, through a bare undici proxy (bench/load/proxy.ts,
 * the reference, measured in the same run), and through the gateway on the embedded store and on Redis
 * (default log level, guardrails in monitor mode, as the issue measured; in monitor mode a request does not wait for its
 * verdict) and once more on the embedded store with guardrails enforcing (every request waits for its scores). Then two tables at BENCH_TABLE_SECONDS (default
 * min(BENCH_SECONDS, 20)): throughput for SVC_PROCESSES=1 and 2 on Redis, and piscina worker counts against
 * throughput and added p99 at the fixed rate; stream first byte at BENCH_STREAM_RATE (200) req/s for BENCH_SECONDS
 * in the same interleaved rounds as the fixed rate; Redis commands per request; 64 slow streams (5 ms per token) against direct and the bare proxy. Every request
 * carries its own user turn (a repeated prompt would be answered by caches keyed on the text).
 *
 * BENCH_TARGETS (comma-separated of direct, proxy, embedded, enforce, redis, processes, workers, slow; default all) runs a
 * subset (without direct, the added columns are left empty), for before/after measurements of one change; BENCH_OUT is the
 * file the table is appended to (default bench/results/latest.md, empty for none); BENCH_GATEWAY_NODE_OPTIONS is the gateway's
 * NODE_OPTIONS (for example a memory probe preloaded with --import, or bench/load/loop-probe.ts: event-loop stalls split into
 * on-CPU and run-queue time, and GC pauses); BENCH_CLOSED_SECONDS=0 skips the closed-loop half of each row
 * (fixed-rate latency only, for interleaved before/after tail measurements); BENCH_GATEWAY_NODE_ARGS adds node flags that
 * NODE_OPTIONS refuses (for example `--cpu-prof --cpu-prof-dir=/tmp/prof`). The gateway runs as an operator runs it:
 * upstreams in the config (the separate simulator process), not the dev bootstrap's. BENCH_PIN=1 pins the process under test to
 * CPU 1 and everything else to CPU 0 (see PIN). BENCH_GATEWAY_CONFIG is a JSON object merged over each gateway's config
 * (for example `{"guardrails":{"mode":"off"}}`).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { fixedRate, hostStalls, hostStallsText, summarize, type Body, type FixedResult, type FixedSamples, type HostStalls } from './fixed-rate.js';
import { childPids, configFrom, freePort, nodeArgsFrom, pinProcess, procStats, startNode, stopNode, waitForHttp, writeGatewayConfig } from './proc.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TABLE_SECONDS = Number(process.env.BENCH_TABLE_SECONDS ?? Math.min(SECONDS, 20));
/** Closed-loop seconds per row (default BENCH_SECONDS; 0 skips the closed loop: fixed-rate latency only). */
const CLOSED_SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? SECONDS);
const RATE = Number(process.env.BENCH_RATE ?? 500);
/** Fixed-rate rounds per row (BENCH_ROUNDS, default 6): the targets take turns, SECONDS / ROUNDS each (see fixedRounds). */
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 6)));
/** Seconds of the host reading (hostStalls) before and after the rows (BENCH_HOST_SECONDS, default 10; 0 skips it). */
const HOST_SECONDS = Number(process.env.BENCH_HOST_SECONDS ?? 10);
const log = (s: string): void => void process.stderr.write(`[sustained] ${s}\n`);
const CONNECTIONS = Number(process.env.BENCH_SUSTAIN_CONNECTIONS ?? 64);
/** Stream first-byte rate (the issue's measure: first byte at 200 req/s). */
const STREAM_RATE = Number(process.env.BENCH_STREAM_RATE ?? 200);
/** Slow streams: tokens this many ms apart (the simulator paces them), at CONNECTIONS connections. */
const SLOW_MS_PER_TOKEN = 5;
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const TARGETS = new Set((process.env.BENCH_TARGETS ?? 'direct,proxy,embedded,enforce,redis,processes,workers,slow').split(','));
const KEY = 'sk-svc-bench-0000000000000000000000';
const PROMPT = [{ role: 'system', content: 'You are a concise assistant for an engineering team. Answer in one short paragraph.' }];
const QUESTIONS = [
  'tell me something short about gateways.',
  'what is a reverse proxy, in two sentences?',
  'summarise why connection pooling matters.',
  'give one tip for reading a flame graph.',
  'explain p99 latency to a new engineer.',
  'what does idempotent mean for an HTTP request?',
  'name a common cause of memory leaks in Node.js.',
  'why do rate limiters use sliding windows?',
];
const OUT = join(projectRoot(), 'bench/results/latest.md');
/** BENCH_GATEWAY_CONFIG: a JSON object merged over the top level of every gateway's config (for A/B runs of one setting). */
const EXTRA_CONFIG = configFrom('BENCH_GATEWAY_CONFIG');
/**
 * BENCH_PIN=1: the process under test (the proxy or a gateway, every thread of it) runs alone on CPU 1 while the load
 * generator, the simulator and Redis share CPU 0 ("one gateway process pinned to one core"). Off by default: it raises direct's
 * own p99 (5.2 against 8.4-12.9 ms: the generator and the simulator then share one core), so pinned rows' "added vs direct" goes
 * negative; compare pinned rows with the proxy's in the same run (bench/results/cpu.md, 2026-12-04: the gateway's non-stream p99
 * was the proxy's -0.56 / +1.97 ms pinned, +1.27 / +11.81 ms unpinned).
 */
const PIN = process.env.BENCH_PIN === '1' && availableParallelism() >= 2;
function pinUnderTest(pid: number): void {
  if (PIN && !pinProcess(pid, '1')) throw new Error('BENCH_PIN: taskset could not pin the process under test (install util-linux or leave BENCH_PIN unset)');
}

/** `3 (503: 2, conn: 1)`, or `0`. */
function errorText(r: FixedResult): string {
  if (r.errors === 0) return '0';
  return `${r.errors} (${[...r.byStatus].map(([k, v]) => `${k}: ${v}`).join(', ')})`;
}

/**
 * Every load call draws its request indexes from here, so that no two requests of a run (warm-up, rounds, closed
 * loop) carry the same user turn: a repeated turn would be answered by the guardrail score cache.
 */
let nextIndex = 0;

/** Fixed-rate samples with request indexes of their own. */
function fixedRun(url: string, headers: Record<string, string>, body: Body, rate: number, seconds: number): Promise<FixedSamples> {
  const first = nextIndex;
  nextIndex += Math.max(1, Math.round(rate * seconds));
  return fixedRate(url, headers, body, rate, seconds, first);
}

async function closedLoop(url: string, headers: Record<string, string>, body: Body, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: body(nextIndex++) }) }],
  });
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

/**
 * Script calls Redis has run (EVALSHA and EVAL, INFO commandstats): each is one round trip of the gateway.
 * Commands a script runs inside Redis are not round trips, so total_commands_processed would overstate them.
 */
async function redisCommands(url: string): Promise<number> {
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableReadyCheck: false });
  try {
    await r.connect();
    const stats = await r.info('commandstats');
    let calls = 0;
    for (const m of stats.matchAll(/^cmdstat_(evalsha|eval|evalsha_ro|eval_ro):calls=(\d+)/gm)) calls += Number(m[2]);
    return calls;
  } finally {
    r.disconnect();
  }
}

interface Target {
  name: string;
  url: string;
  pid: number | null;
  headers: Record<string, string>;
  model: (stream: boolean) => string;
  /** The Redis the target uses: its commands per request are counted (INFO stats) over the closed loop. */
  redisUrl?: string;
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
  /** Stream rows: first byte at STREAM_RATE req/s (fixed rate, SECONDS in ROUNDS interleaved rounds). */
  firstByte: FixedResult | null;
  /** Redis script calls (round trips) per request over the closed loop (settlement included), when the target uses Redis. */
  redisCommandsPerReq: number | null;
}

/** The bench's request: a fixed system prompt and a user turn that differs per request (index i). */
function payload(model: string, stream: boolean): Body {
  return (i) => JSON.stringify({ model, messages: [...PROMPT, { role: 'user', content: `Request ${i}: ${QUESTIONS[i % QUESTIONS.length]}` }], max_tokens: 16, stream });
}

/**
 * The fixed-rate half of every target's row for one mode: after a warm-up of each, ROUNDS rounds of SECONDS/ROUNDS
 * seconds in which every target takes its turn (the order rotating by one each round), each target's rounds pooled
 * into one distribution. A slow minute of the host then falls on every target alike instead of on whichever row
 * was running; the spread of the rounds' p99 is printed with the table.
 */
async function fixedRounds(targets: readonly Target[], stream: boolean, rate = RATE, warmUp = true): Promise<Map<Target, { fixed: FixedResult; s0: ReturnType<typeof stats> }>> {
  const samples = new Map<Target, FixedSamples[]>(targets.map((t) => [t, []]));
  const s0 = new Map<Target, ReturnType<typeof stats>>();
  for (const t of targets) {
    if (warmUp) await closedLoop(`${t.url}/v1/chat/completions`, t.headers, payload(t.model(stream), stream), Math.min(2, SECONDS), 16); // warm-up (JIT, pools, caches)
    s0.set(t, stats(t.pid));
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(k + r) % targets.length]!;
      log(`fixed rate ${rate}/s, ${stream ? 'stream' : 'non-stream'}, round ${r + 1}/${ROUNDS}: ${t.name}`);
      samples.get(t)!.push(await fixedRun(`${t.url}/v1/chat/completions`, t.headers, payload(t.model(stream), stream), rate, SECONDS / ROUNDS));
    }
  }
  return new Map(targets.map((t) => [t, { fixed: summarize(samples.get(t)!), s0: s0.get(t) ?? null }]));
}

/** The rest of a target's row after its fixed-rate rounds (and, for streams, its first-byte rounds): the closed loop, CPU, RSS. */
async function measure(t: Target, stream: boolean, fixed: FixedResult, s0: ReturnType<typeof stats>, firstByte: FixedResult | null): Promise<SustainedRow> {
  const url = `${t.url}/v1/chat/completions`;
  const body = payload(t.model(stream), stream);
  const c0 = stats(t.pid);
  const r0 = t.redisUrl ? await redisCommands(t.redisUrl) : 0;
  const closed = CLOSED_SECONDS > 0 ? await closedLoop(url, t.headers, body, CLOSED_SECONDS) : null;
  const s1 = stats(t.pid);
  // Settlement is batched: let the last batch reach Redis before counting.
  const r1 = t.redisUrl ? await new Promise((r) => setTimeout(r, 500)).then(() => redisCommands(t.redisUrl!)) : 0;
  return {
    firstByte,
    redisCommandsPerReq: t.redisUrl && closed ? (r1 - r0) / Math.max(1, closed.requests.total) : null,
    target: t.name,
    mode: stream ? 'stream' : 'non-stream',
    fixed,
    rps: closed ? closed.requests.average : NaN,
    closedErrors: closed ? closed.errors + closed.non2xx : 0,
    cpuMsPerReq: c0 && s1 && closed ? (s1.cpuMs - c0.cpuMs) / Math.max(1, closed.requests.total) : null,
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

async function startGateway(dir: string, simUrl: string, opts: { redisUrl?: string; workers?: number; processes?: number; guard?: 'monitor' | 'enforce' }): Promise<GatewayRun> {
  const port = await freePort();
  const configPath = join(dir, `config-${port}.json`);
  // The default store (no `store` field): the durable embedded database and the settlement journal in the data
  // directory, as an operator runs it; SVC_REDIS_URL switches to Redis.
  writeGatewayConfig(configPath, simUrl, {
    guardrails: { mode: opts.guard ?? 'monitor' },
    ...(opts.workers ? { workers: { min: opts.workers, max: opts.workers } } : {}),
    ...EXTRA_CONFIG,
  });
  const child = startNode([...GATEWAY_NODE_FLAGS, ...nodeArgsFrom('BENCH_GATEWAY_NODE_ARGS'), join(projectRoot(), 'dist/src/main.js')], {
    SVC_CONFIG: configPath,
    SVC_PORT: String(port),
    SVC_DASHBOARD_PORT: '0',
    SVC_DEV_KEY: KEY,
    SVC_DEV_BOOTSTRAP: 'true',
    SVC_DATA_DIR: join(dir, `gateway-${port}`),
    SVC_LOG_LEVEL: undefined,
    SVC_GUARDRAILS_MODE: undefined,
    SVC_REDIS_URL: opts.redisUrl,
    SVC_PROCESSES: opts.processes ? String(opts.processes) : undefined,
    NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS,
  });
  // The banner names the models the dev bootstrap's simulator serves: none may be (the bench's upstream is its own
  // simulator, started apart, which direct is measured against).
  let banner = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (banner.length < 16_384) banner += d.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, 60_000);
  // Every thread running now; the ones started later (scoring threads on demand) inherit the mask.
  if ((opts.processes ?? 1) === 1) pinUnderTest(child.pid!);
  const bannerLine = /models\s+\d+ \((\d+) served by the built-in simulator/;
  for (let i = 0; i < 100 && !bannerLine.test(banner); i++) await new Promise((r) => setTimeout(r, 100));
  const inProcess = bannerLine.exec(banner);
  if (!inProcess) throw new Error('the gateway printed no models line: cannot tell whether it runs the dev simulator');
  if (inProcess[1] !== '0') throw new Error(`the gateway under test runs the dev simulator: ${inProcess[0]}`);
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

/** A titled table, or nothing when none of its targets ran (BENCH_TARGETS). */
function table(title: string, header: string, rows: readonly string[]): string[] {
  if (rows.length === 0) return [];
  return ['', title, '', header, header.replace(/[^|]+/g, '---'), ...rows];
}

function firstByteRows(rows: readonly SustainedRow[]): string[] {
  const direct = rows.find((r) => r.target.startsWith('direct') && r.mode === 'stream')?.firstByte ?? null;
  return rows
    .filter((r) => r.mode === 'stream')
    .map((r) => {
      const fb = r.firstByte;
      const added = fb && direct && fb !== direct ? `${f2(fb.firstByteP50 - direct.firstByteP50)} / ${f2(fb.firstByteP99 - direct.firstByteP99)}` : '-';
      const cmds = rows.filter((x) => x.target === r.target).map((x) => f1(x.redisCommandsPerReq)).join(' / ');
      return `| ${r.target} | ${fb ? `${f2(fb.firstByteP50)} / ${f2(fb.firstByteP99)}` : '-'} | ${added} | ${fb ? errorText(fb) : '-'} | ${cmds} |`;
    });
}

/** Each first-byte row against the bare proxy's, and the spread of its rounds' first-byte p99. */
function firstByteNotes(rows: readonly SustainedRow[]): string[] {
  const streams = rows.filter((r) => r.mode === 'stream' && r.firstByte);
  const proxy = streams.find((r) => r.target.startsWith('bare'))?.firstByte ?? null;
  return streams.map((r) => {
    const fb = r.firstByte!;
    const over = proxy && r.target.startsWith('gateway') ? `over the bare proxy p50 / p99 ${f2(fb.firstByteP50 - proxy.firstByteP50)} / ${f2(fb.firstByteP99 - proxy.firstByteP99)} ms; ` : '';
    return `- ${r.target}: ${over}first-byte p99 of each round ${fb.roundFirstByteP99s.map(f2).join(', ') || '-'} ms`;
  });
}

/**
 * Each gateway row against the bare proxy's (what the gateway adds over a proxy that only forwards, measured in the
 * same rounds), and the spread of each target's per-round p99.
 */
function againstProxy(rows: readonly SustainedRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    const proxy = rows.find((x) => x.target.startsWith('bare') && x.mode === r.mode);
    const spread = r.fixed.roundP99s.length ? `p99 of each round ${r.fixed.roundP99s.map(f2).join(', ')} ms` : '';
    const over = proxy && r.target.startsWith('gateway') ? `over the bare proxy p50 / p99 / p99.9 ${f2(r.fixed.p50 - proxy.fixed.p50)} / ${f2(r.fixed.p99 - proxy.fixed.p99)} / ${f2(r.fixed.p999 - proxy.fixed.p999)} ms` : '';
    if (spread || over) out.push(`- ${r.target}, ${r.mode}: ${[over, spread].filter(Boolean).join('; ')}`);
  }
  return out;
}

/** What the host itself does to a thread that never sleeps, before and after the rows (see hostStalls). */
function hostLines(before: HostStalls | null, after: HostStalls | null): string[] {
  if (HOST_SECONDS <= 0) return [];
  if (!before && !after) return ['', 'The host reading (one busy thread pinned to each CPU with taskset) could not be taken.'];
  return [
    '',
    'The host, with one busy thread on each CPU and nothing of the bench running (a gap = the thread was kept off its CPU; every row above, direct included, pays these):',
    ...(before ? [`- before the rows (${before.seconds} s): ${hostStallsText(before)}`] : []),
    ...(after ? [`- after the rows (${after.seconds} s): ${hostStallsText(after)}`] : []),
  ];
}

async function main(): Promise<void> {
  const root = projectRoot();
  if (PIN && !pinProcess(process.pid, '0')) throw new Error('BENCH_PIN: taskset could not pin the load generator (install util-linux or leave BENCH_PIN unset)');
  const dir = mkdtempSync(join(tmpdir(), 'svc-sustained-'));
  const simPort = await freePort();
  const proxyPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(simPort)], {});
  const proxy = startNode([join(root, 'dist/bench/load/proxy.js'), String(proxyPort), simUrl], {});
  const redis = await startRedis(dir);
  const upstreamModel = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
  const auth = { authorization: `Bearer ${KEY}` };
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    await waitForHttp(`http://127.0.0.1:${proxyPort}/_sim/health`);
    pinUnderTest(proxy.pid!);
    const hostBefore = HOST_SECONDS > 0 ? await hostStalls(HOST_SECONDS) : null;
    const rows: SustainedRow[] = [];
    const targets: Target[] = [];
    const gateways: GatewayRun[] = [];
    try {
      if (TARGETS.has('direct')) targets.push({ name: 'direct (simulator)', url: simUrl, pid: null, headers: {}, model: () => upstreamModel });
      if (TARGETS.has('proxy')) targets.push({ name: 'bare undici proxy', url: `http://127.0.0.1:${proxyPort}`, pid: proxy.pid!, headers: {}, model: () => upstreamModel });
      // Every gateway runs for the whole table (idle while the others are measured), so that their rounds interleave.
      for (const [name, target, redisUrl, guard] of [
        ['gateway, embedded store', 'embedded', undefined, 'monitor'],
        ['gateway, embedded store, guardrails enforce', 'enforce', undefined, 'enforce'],
        ['gateway, Redis', 'redis', redis.url, 'monitor'],
      ] as const) {
        if (!TARGETS.has(target)) continue;
        const gw = await startGateway(dir, simUrl, { redisUrl, guard });
        gateways.push(gw);
        targets.push({ name, url: gw.url, pid: gw.pid, headers: auth, model: () => 'gpt-4o-mini', redisUrl });
      }
      for (const stream of [false, true]) {
        const fixed = await fixedRounds(targets, stream);
        // The first byte in interleaved rounds too: one 20 s run per target put a spell of the host on one row. The
        // stream rounds just before warmed every target.
        const firstBytes = stream ? await fixedRounds(targets, stream, STREAM_RATE, false) : null;
        for (const t of targets) {
          log(`${t.name} ${stream ? 'stream' : 'non-stream'}: closed loop`);
          const f = fixed.get(t)!;
          rows.push(await measure(t, stream, f.fixed, f.s0, firstBytes?.get(t)?.fixed ?? null));
        }
      }
    } finally {
      for (const gw of gateways) await gw.stop();
    }
    rows.sort((x, y) => targets.findIndex((t) => t.name === x.target) - targets.findIndex((t) => t.name === y.target));

    // Slow streams: the simulator spaces tokens SLOW_MS_PER_TOKEN apart on every endpoint the targets reach;
    // closed loop at CONNECTIONS connections, so throughput is bounded by the streams' own duration.
    const slowRows: string[] = [];
    if (TARGETS.has('slow')) {
      const gwBase = simulatedCatalog(DEMO_CATALOG, {}, simUrl).models.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.baseUrl;
      const prefixes = ['/', new URL(gwBase).pathname.replace(/\/v1\/?$/, '') || '/'];
      const pace = (ms: number): Promise<unknown> =>
        Promise.all(prefixes.map((prefix) => fetch(`${simUrl}/_sim/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefix, msPerToken: ms }) })));
      await pace(SLOW_MS_PER_TOKEN);
      const gw = await startGateway(dir, simUrl, {});
      try {
        const targets: Target[] = [
          { name: 'direct (simulator)', url: simUrl, pid: null, headers: {}, model: () => upstreamModel },
          { name: 'bare undici proxy', url: `http://127.0.0.1:${proxyPort}`, pid: proxy.pid!, headers: {}, model: () => upstreamModel },
          { name: 'gateway, embedded store', url: gw.url, pid: gw.pid, headers: auth, model: () => 'gpt-4o-mini' },
        ];
        for (const t of targets) {
          log(`slow streams: ${t.name}`);
          const url = `${t.url}/v1/chat/completions`;
          const body = payload(t.model(true), true);
          await closedLoop(url, t.headers, body, Math.min(2, TABLE_SECONDS), 16);
          const a = stats(t.pid);
          const r = await closedLoop(url, t.headers, body, TABLE_SECONDS);
          const b = stats(t.pid);
          const cpu = a && b ? (b.cpuMs - a.cpuMs) / Math.max(1, r.requests.total) : null;
          slowRows.push(`| ${t.name} | ${Math.round(r.requests.average)} | ${r.latency.p50} / ${r.latency.p99} | ${r.errors + r.non2xx} | ${f3(cpu)} |`);
        }
      } finally {
        await gw.stop();
        await pace(0);
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

    // Piscina workers, embedded store, non-stream, guardrails enforcing (every request waits for its scores from
    // the pool; the bench prompt passes): in monitor mode a request does not wait, so the pool would not show in p99.
    const direct = rows.find((r) => r.target.startsWith('direct') && r.mode === 'non-stream');
    const workerRows: string[] = [];
    for (const w of TARGETS.has('workers') ? WORKER_COUNTS : []) {
      log(`workers=${w}`);
      const gw = await startGateway(dir, simUrl, { workers: w, guard: 'enforce' });
      try {
        const body = payload('gpt-4o-mini', false);
        const url = `${gw.url}/v1/chat/completions`;
        await closedLoop(url, auth, body, Math.min(2, TABLE_SECONDS), 16);
        const fixed = summarize([await fixedRun(url, auth, body, RATE, TABLE_SECONDS)]);
        const r = await closedLoop(url, auth, body, TABLE_SECONDS);
        workerRows.push(`| ${w} | ${Math.round(r.requests.average)} | ${f2(fixed.p99)} | ${f2(direct ? fixed.p99 - direct.fixed.p99 : null)} | ${errorText(fixed)} / ${r.errors + r.non2xx} |`);
      } finally {
        await gw.stop();
      }
    }

    const hostAfter = HOST_SECONDS > 0 ? await hostStalls(HOST_SECONDS) : null;
    const lines = [
      '',
      `## Sustained load (${new Date().toISOString().slice(0, 16)}Z, ${availableParallelism()} cores shared by load generator, simulator and the process under test)`,
      '',
      `Fixed rate: ${RATE} req/s for ${SECONDS} s, latency from the intended send time to the last byte (open loop, no coordinated omission), ` +
        `${ROUNDS > 1 ? `in ${ROUNDS} rounds of ${f1(SECONDS / ROUNDS)} s in which every target takes its turn (the order rotating each round), each target's rounds pooled: a slow spell of the host falls on every target alike. ` : ''}` +
        `Closed loop: ${CONNECTIONS} connections for ${SECONDS} s (autocannon). Gateway at the default log level (info, JSON to stdout), guardrails in monitor mode (a request does not wait for its verdict) except the row marked enforce (every request waits for its scores from the worker pool). ` +
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
        `| ${r.target} | ${r.mode} | ${f2(r.fixed.p50)} | ${f2(r.fixed.p99)} | ${f2(r.fixed.p999)} | ${added} | ${errorText(r.fixed)} | ${Math.round(r.fixed.achievedRps)} | ${f2(r.fixed.lagP99)} | ${Number.isNaN(r.rps) ? '-' : Math.round(r.rps)} | ${r.closedErrors} | ${f3(r.cpuMsPerReq)} | ${f1(r.rssStart)} / ${f1(r.rssEnd)} / ${f1(r.peak)} |`,
      );
    }
    lines.push('', ...againstProxy(rows), ...hostLines(hostBefore, hostAfter));
    const fb = firstByteRows(rows);
    lines.push(
      ...table(
        `### Processes (SVC_PROCESSES on Redis, non-stream, ${CONNECTIONS} connections, ${TABLE_SECONDS} s; CPU and RSS summed over the processes)`,
        '| processes | req/s | p50 / p99 ms | errors | CPU ms/req | RSS MiB |',
        procRows,
      ),
      ...table(
        `### Piscina workers (embedded store, guardrails enforce, non-stream; throughput: ${CONNECTIONS} connections, ${TABLE_SECONDS} s; p99: ${RATE} req/s fixed rate, ${TABLE_SECONDS} s)`,
        '| workers | req/s | fixed-rate p99 ms | added p99 ms (vs direct) | errors fixed / closed |',
        workerRows,
      ),
      ...table(
        `### Stream first byte (fixed ${STREAM_RATE} req/s for ${SECONDS} s${ROUNDS > 1 ? ` in ${ROUNDS} interleaved rounds` : ''}, from the intended send time to the first body byte) and Redis commands per request`,
        '| target | first byte p50 / p99 ms | added p50 / p99 ms (vs direct) | errors | Redis script calls per request (closed loop, non-stream / stream) |',
        fb,
      ),
      ...(fb.length > 0
        ? [
            '',
            ...firstByteNotes(rows),
            '',
            'Redis script calls per request: admission and hold are one Lua script per request (one round trip on the hot',
            'path, test/integration/redis-round-trips.test.ts counts every command), settlement one script per batch.',
          ]
        : []),
      ...table(
        `### Slow streams (${SLOW_MS_PER_TOKEN} ms per token from the simulator, ${CONNECTIONS} connections, closed loop, ${TABLE_SECONDS} s)`,
        '| target | req/s | p50 / p99 ms | errors | CPU ms/req |',
        slowRows,
      ),
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
