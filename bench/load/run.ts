/**
 * `make bench`: autocannon against the built-in provider simulator, directly and through the gateway, on
 * this machine. Prints a table (gateway vs direct, added latency p50/p99, requests/s, CPU per request,
 * RSS) and writes it to bench/results/latest.md.
 */
import autocannon from 'autocannon';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { procStats, startNode, waitForHttp, writeGatewayConfig } from './proc.js';
import { pct, sample } from './ttfb.js';

const SIM_PORT = 19_100;
const GW_PORT = 19_180;
const KEY = 'sk-svc-bench-0000000000000000000000';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Row {
  scenario: string;
  target: 'direct' | 'gateway';
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  cpuMsPerReq: number | null;
  rssMiB: number | null;
}

function body(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Benchmark prompt: tell me something short about gateways.' }],
    max_tokens: 16,
    stream,
  });
}

async function load(url: string, payload: string, headers: Record<string, string>, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    body: payload,
  });
}

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const simUrl = `http://127.0.0.1:${SIM_PORT}`;
  const configPath = join(dir, 'config.json');
  writeGatewayConfig(configPath, simUrl); // the default store: the database in SVC_DATA_DIR
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(SIM_PORT)], {});
  const gw = startNode([...GATEWAY_NODE_FLAGS, ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), join(root, 'dist/src/main.js')], {
    SVC_CONFIG: configPath,
    SVC_PORT: String(GW_PORT),
    SVC_DEV_KEY: KEY,
    SVC_DEV_BOOTSTRAP: 'true',
    SVC_DATA_DIR: dir,
  });
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    await waitForHttp(`http://127.0.0.1:${GW_PORT}/healthz`);
    const rows: Row[] = [];
    const scenarios: [string, boolean][] = [
      ['chat non-stream', false],
      ['chat stream', true],
    ];
    for (const [name, stream] of scenarios) {
      const upstreamModel = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
      await load(`${simUrl}/v1/chat/completions`, body(upstreamModel, stream), {}, 2); // warm-up
      const d = await load(`${simUrl}/v1/chat/completions`, body(upstreamModel, stream), {}, DURATION_S);
      rows.push({ scenario: name, target: 'direct', p50: d.latency.p50, p99: d.latency.p99, rps: d.requests.average, errors: d.errors + d.non2xx, cpuMsPerReq: null, rssMiB: null });
      const auth = { authorization: `Bearer ${KEY}` };
      await load(`http://127.0.0.1:${GW_PORT}/v1/chat/completions`, body('gpt-4o-mini', stream), auth, 2);
      const before = procStats(gw.pid!);
      const g = await load(`http://127.0.0.1:${GW_PORT}/v1/chat/completions`, body('gpt-4o-mini', stream), auth, DURATION_S);
      const after = procStats(gw.pid!);
      const total = g.requests.total || 1;
      rows.push({
        scenario: name,
        target: 'gateway',
        p50: g.latency.p50,
        p99: g.latency.p99,
        rps: g.requests.average,
        errors: g.errors + g.non2xx,
        cpuMsPerReq: (after.cpuMs - before.cpuMs) / total,
        rssMiB: after.rssMiB,
      });
    }
    const lines = [
      `# Load benchmark (${new Date().toISOString().slice(0, 10)}, ${CONNECTIONS} connections, ${DURATION_S}s per row, 2-core machine; autocannon, gateway and simulator share the cores)`,
      '',
      '| scenario | target | p50 ms | p99 ms | added p50 ms | added p99 ms | req/s | errors | gateway CPU ms/req | gateway RSS MiB |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const r of rows) {
      const direct = rows.find((x) => x.scenario === r.scenario && x.target === 'direct')!;
      const added = r.target === 'gateway';
      lines.push(
        `| ${r.scenario} | ${r.target} | ${r.p50} | ${r.p99} | ${added ? (r.p50 - direct.p50).toFixed(1) : '-'} | ${added ? (r.p99 - direct.p99).toFixed(1) : '-'} | ${Math.round(r.rps)} | ${r.errors} | ${r.cpuMsPerReq === null ? '-' : r.cpuMsPerReq.toFixed(3)} | ${r.rssMiB === null ? '-' : r.rssMiB.toFixed(0)} |`,
      );
    }
    lines.push('', ...(await firstByteTable(simUrl, gw.pid!)), '');
    const table = lines.join('\n') + '\n';
    process.stdout.write(table);
    writeFileSync(join(root, 'bench/results/latest.md'), table);
  } finally {
    if (process.env.BENCH_PROF) process.stdout.write(`cpu profile in ${dir}\n`);
    gw.kill('SIGTERM');
    sim.kill('SIGTERM');
  }
}

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);

/**
 * Sequential (one request at a time) first-byte and total latency, gateway vs direct, and gateway CPU per
 * request: same-format passthrough, cross-format transcode (messages client, OpenAI-format upstream), and
 * an alias vs a concrete model.
 */
async function firstByteTable(simUrl: string, gwPid: number): Promise<string[]> {
  const upstreamModel = DEMO_CATALOG.find((m) => m.id === 'gpt-4o-mini')!.endpoints[0]!.upstreamModel;
  const prompt = [{ role: 'user', content: 'Benchmark prompt: tell me something short about gateways.' }];
  const gwUrl = `http://127.0.0.1:${GW_PORT}`;
  const auth = { authorization: `Bearer ${KEY}` };
  const direct = await sample(`${simUrl}/v1/chat/completions`, {}, JSON.stringify({ model: upstreamModel, messages: prompt, max_tokens: 16, stream: true }), SAMPLES, 30);
  const directJson = await sample(`${simUrl}/v1/chat/completions`, {}, JSON.stringify({ model: upstreamModel, messages: prompt, max_tokens: 16 }), SAMPLES, 30);
  const rows: [string, string, Awaited<ReturnType<typeof sample>>, number][] = [];
  const run = async (name: string, path: string, body: unknown, base: typeof direct): Promise<void> => {
    const before = procStats(gwPid).cpuMs;
    const s = await sample(`${gwUrl}${path}`, auth, JSON.stringify(body), SAMPLES, 30);
    rows.push([name, path, s, (procStats(gwPid).cpuMs - before) / (SAMPLES + 30)]);
    void base;
  };
  await run('chat stream, passthrough (OpenAI upstream)', '/v1/chat/completions', { model: 'gpt-4o-mini', messages: prompt, max_tokens: 16, stream: true }, direct);
  await run('messages stream -> OpenAI upstream (transcode)', '/v1/messages', { model: 'gpt-4o-mini', messages: prompt, max_tokens: 16, stream: true }, direct);
  await run('chat non-stream, concrete model', '/v1/chat/completions', { model: 'gpt-4o-mini', messages: prompt, max_tokens: 16 }, directJson);
  await run('chat non-stream, alias (fastest-gpt)', '/v1/chat/completions', { model: 'fastest-gpt', messages: prompt, max_tokens: 16 }, directJson);
  const f = (x: number): string => x.toFixed(2);
  const out = [
    `## Sequential latency (${SAMPLES} requests each, one at a time; added = gateway - direct to the simulator)`,
    '',
    '| scenario | first byte p50 / p99 ms | added first byte p50 / p99 ms | total p50 / p99 ms | added total p50 / p99 ms | gateway CPU ms/req | errors |',
    '|---|---|---|---|---|---|---|',
    `| direct to simulator, stream | ${f(pct(direct.firstByteMs, 50))} / ${f(pct(direct.firstByteMs, 99))} | - | ${f(pct(direct.totalMs, 50))} / ${f(pct(direct.totalMs, 99))} | - | - | ${direct.errors} |`,
    `| direct to simulator, non-stream | ${f(pct(directJson.firstByteMs, 50))} / ${f(pct(directJson.firstByteMs, 99))} | - | ${f(pct(directJson.totalMs, 50))} / ${f(pct(directJson.totalMs, 99))} | - | - | ${directJson.errors} |`,
  ];
  for (const [name, , s, cpu] of rows) {
    const base = name.includes('non-stream') ? directJson : direct;
    out.push(
      `| ${name} | ${f(pct(s.firstByteMs, 50))} / ${f(pct(s.firstByteMs, 99))} | ${f(pct(s.firstByteMs, 50) - pct(base.firstByteMs, 50))} / ${f(pct(s.firstByteMs, 99) - pct(base.firstByteMs, 99))} | ${f(pct(s.totalMs, 50))} / ${f(pct(s.totalMs, 99))} | ${f(pct(s.totalMs, 50) - pct(base.totalMs, 50))} / ${f(pct(s.totalMs, 99) - pct(base.totalMs, 99))} | ${cpu.toFixed(3)} | ${s.errors} |`,
    );
  }
  return out;
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
