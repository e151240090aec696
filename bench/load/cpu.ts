/**
 * CPU per request, gateway against the bare undici proxy, in one run (issue 9: at most 1.7x). A short,
 * repeatable form of the sustained bench's closed-loop column for before/after comparisons on a shared
 * machine: CPU time of the process under test / requests served is robust to contention, wall-clock is not.
 *
 *   node dist/bench/load/cpu.js
 *
 * BENCH_SECONDS (10) per row, BENCH_REPEAT (3) rounds, BENCH_SUSTAIN_CONNECTIONS (64), BENCH_STORE
 * (`embedded`, `durable`, `redis`, `both` = embedded and redis, or a comma-separated list; `embedded` is a throwaway
 * store with no database flush, `durable` the default configuration: the database on disk and the settlement journal), BENCH_MODES (`non-stream,stream`), BENCH_VARY=1 for a new prompt per request. BENCH_PROF=1 writes V8 CPU profiles of
 * the gateway's main thread and of its worker threads (workers inherit `--cpu-prof`) into the printed folder.
 * BENCH_GUARD=enforce runs the default guardrail mode instead of monitor; BENCH_VARIANT_ARGS='<node flags>' adds, in every
 * round, this build started with those flags as well (for example `--max-semi-space-size=8`).
 */
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { freePort, guardModeFrom, nodeArgsFrom, procStats, startNode, stopNode, waitForHttp, writeGatewayConfig } from './proc.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const CONNECTIONS = Number(process.env.BENCH_SUSTAIN_CONNECTIONS ?? 64);
const STORE_ARG = process.env.BENCH_STORE ?? 'embedded';
const STORE_KINDS = STORE_ARG === 'both' ? ['embedded', 'redis'] : STORE_ARG.split(',');
/**
 * BENCH_BASE=<dir>[,<dir>...]: also run the gateway built in other checkouts (their dist/), interleaved with
 * this one in every round, so a before/after comparison sees the same machine load. Labelled by folder name.
 */
const BASES = new Map((process.env.BENCH_BASE ?? '').split(',').filter(Boolean).map((d) => [d.replace(/\/+$/, '').split('/').pop()!, d]));
/**
 * BENCH_VARIANT_ARGS='<node flags>': also run this build with these node flags added after the defaults (a later flag
 * wins), labelled `<store>~flags`, interleaved in every round: for before/after measurements of a runtime flag.
 */
const VARIANT_ARGS = nodeArgsFrom('BENCH_VARIANT_ARGS');
/** BENCH_GUARD=enforce: the default guardrail mode (every request waits for its scores) instead of monitor, as the issue measured. */
const GUARD_MODE = guardModeFrom('BENCH_GUARD');
const STORES = STORE_KINDS.flatMap((s) => [...[...BASES.keys()].map((b) => `${s}@${b}`), s, ...(VARIANT_ARGS.length > 0 ? [`${s}~flags`] : [])]);
const MODES = (process.env.BENCH_MODES ?? 'non-stream,stream').split(',');
const PROF = Boolean(process.env.BENCH_PROF);
/**
 * BENCH_RATE=<req/s>: a fixed offered rate over the connections instead of as fast as they go. On a loaded
 * machine the closed loop's throughput (and with it how much work shares an event-loop turn) follows the
 * neighbours; at a fixed rate the process under test does the same work per second in every run.
 */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/** BENCH_VARY=1: every request's prompt is different (no guardrail score-cache hit: the pool path). */
const VARY = Boolean(process.env.BENCH_VARY);
/** BENCH_THREADS=1: also print CPU per request by thread (main, then name:tid for libuv, workers, the LMDB writer). */
const THREADS = Boolean(process.env.BENCH_THREADS);

function threadCpu(pid: number): Map<string, { name: string; cpuMs: number }> {
  const out = new Map<string, { name: string; cpuMs: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = tid === String(pid) ? 'main' : `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}:${tid}`;
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, { name, cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / 100 });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}
const KEY = 'sk-svc-bench-0000000000000000000000';
const PROMPT = [{ role: 'user', content: 'Benchmark prompt: tell me something short about gateways.' }];

async function cpuPerRequest(url: string, pid: number, headers: Record<string, string>, model: string, stream: boolean): Promise<{ ms: number; rps: number; errors: number }> {
  const body = JSON.stringify({ model, messages: PROMPT, max_tokens: 16, stream });
  let n = 0;
  const vary = (): string => JSON.stringify({ model, messages: [{ role: 'user', content: `${PROMPT[0]!.content} (${++n})` }], max_tokens: 16, stream });
  const opts = {
    url: `${url}/v1/chat/completions`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(VARY ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: vary() }) }] } : {}),
  };
  await autocannon({ ...opts, connections: 16, duration: 2 }); // warm-up (JIT, pools, caches)
  const a = procStats(pid);
  const ta = threadCpu(pid);
  const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: SECONDS, ...(RATE ? { overallRate: RATE } : {}) });
  const b = procStats(pid);
  if (THREADS) {
    const tb = threadCpu(pid);
    const n = Math.max(1, r.requests.total);
    const per = new Map<string, number>();
    for (const [tid, t] of tb) per.set(t.name, (per.get(t.name) ?? 0) + (t.cpuMs - (ta.get(tid)?.cpuMs ?? 0)) / n);
    process.stdout.write(`  threads (ms/req): ${[...per].filter(([, v]) => v > 0.0005).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}\n`);
  }
  return { ms: (b.cpuMs - a.cpuMs) / Math.max(1, r.requests.total), rps: r.requests.average, errors: r.errors + r.non2xx };
}

async function startRedis(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 100));
    const up = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(true));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
    });
    if (up) return { url: `redis://127.0.0.1:${port}`, stop: () => stopNode(proc) };
  }
  throw new Error('redis-server did not start');
}

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-cpu-'));
  const [simPort, proxyPort] = [await freePort(), await freePort()];
  const simUrl = `http://127.0.0.1:${simPort}`;
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(simPort)], {});
  const proxy = startNode([join(root, 'dist/bench/load/proxy.js'), String(proxyPort), simUrl], {});
  const children: ChildProcess[] = [sim, proxy];
  // Interrupted (Ctrl-C, kill): take the processes this bench started along, never leave them running.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      for (const c of children) c.kill('SIGKILL');
      process.exit(130);
    });
  }
  const redis = STORE_KINDS.includes('redis') ? await startRedis(dir) : null;
  const upstreamModel = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
  const lines: string[] = [];
  const say = (s: string): void => {
    lines.push(s);
    process.stdout.write(s + '\n');
  };
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    await waitForHttp(`http://127.0.0.1:${proxyPort}/_sim/health`);
    const gws = new Map<string, { url: string; pid: number; stop: () => Promise<void> }>();
    for (const store of STORES) {
      const port = await freePort();
      const configPath = join(dir, `config-${store}.json`);
      const kind = store.split(/[@~]/)[0];
      // durable: no store setting at all, so the gateway runs as `make run` does (database and journal in SVC_DATA_DIR).
      const storeConfig = kind === 'embedded' ? { store: { kind: 'memory', snapshotPath: null } } : {};
      writeGatewayConfig(configPath, simUrl, { ...storeConfig, guardrails: { mode: GUARD_MODE } });
      const from = store.includes('@') ? BASES.get(store.split('@')[1]!)! : root;
      const variant = store.endsWith('~flags') ? VARIANT_ARGS : [];
      const child = startNode([...GATEWAY_NODE_FLAGS, ...variant, ...(PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, store)}`] : []), join(from, 'dist/src/main.js')], {
        SVC_CONFIG: configPath,
        SVC_PORT: String(port),
        SVC_DASHBOARD_PORT: '0',
        SVC_DEV_KEY: KEY,
        SVC_DEV_BOOTSTRAP: 'true',
        SVC_DATA_DIR: join(dir, store),
        SVC_LOG_LEVEL: undefined,
        SVC_GUARDRAILS_MODE: undefined,
        SVC_REDIS_URL: store.startsWith('redis') ? redis!.url : undefined,
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/healthz`, 60_000);
      gws.set(store, { url, pid: child.pid!, stop: () => stopNode(child) });
    }
    say(`| round | mode | proxy ms/req | ${STORES.map((s) => `${s} ms/req | ${s} x proxy | ${s} req/s`).join(' | ')} |`);
    const seen = new Map<string, number[]>();
    const note = (k: string, v: number): void => void seen.set(k, [...(seen.get(k) ?? []), v]);
    for (let round = 1; round <= REPEAT; round++) {
      for (const mode of MODES) {
        const stream = mode === 'stream';
        const p = await cpuPerRequest(`http://127.0.0.1:${proxyPort}`, proxy.pid!, {}, upstreamModel, stream);
        note(`${mode} proxy`, p.ms);
        const cells: string[] = [];
        for (const store of STORES) {
          const gw = gws.get(store)!;
          const g = await cpuPerRequest(gw.url, gw.pid, { authorization: `Bearer ${KEY}` }, 'gpt-4o-mini', stream);
          note(`${mode} ${store}`, g.ms);
          note(`${mode} ${store} x proxy`, g.ms / p.ms);
          cells.push(`${g.ms.toFixed(3)}${g.errors ? ` (${g.errors} err)` : ''} | ${(g.ms / p.ms).toFixed(2)} | ${Math.round(g.rps)}`);
        }
        say(`| ${round} | ${mode} | ${p.ms.toFixed(3)} | ${cells.join(' | ')} |`);
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    say('');
    for (const [k, xs] of seen) say(`median ${k}: ${median(xs).toFixed(3)} (${xs.map((x) => x.toFixed(3)).join(', ')})`);
    for (const gw of gws.values()) await gw.stop();
  } finally {
    await stopNode(proxy);
    await stopNode(sim);
    await redis?.stop();
    if (PROF) process.stdout.write(`cpu profiles in ${dir}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`cpu bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
