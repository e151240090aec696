/**
 * Soak: the real gateway (child process) on the durable embedded store (LMDB in a fresh data directory, the
 * settlement journal on) or on Redis (SOAK_REDIS_URL), under autocannon for SOAK_SECONDS, sampling its
 * resident memory every SOAK_SAMPLE_S. Default settings, as an operator runs it: the default log level (info),
 * guardrails scoring (monitor, as the sustained bench; SOAK_GUARD=enforce for the default mode), every prompt
 * distinct (no cache answers it), one request in three streaming. The RSS column must go flat after warm-up; the
 * table and the latency summary are written to bench/results/soak-<store>.md (soak-<store>-enforce.md in enforce mode).
 *
 *   node dist/bench/load/soak.js                       # 120 s, 32 connections, embedded store
 *   SOAK_SECONDS=600 SOAK_CONNECTIONS=512 node dist/bench/load/soak.js
 *   SOAK_CONNECTIONS=2048 SOAK_DOC_BYTES=16384 SOAK_OUT=/tmp/soak.md node dist/bench/load/soak.js
 *   SOAK_GUARD=enforce SOAK_SECONDS=1200 SOAK_CONNECTIONS=256 node dist/bench/load/soak.js   # the default guardrail mode
 *   SOAK_TARGET=proxy SOAK_CONNECTIONS=4096 SOAK_OUT= node dist/bench/load/soak.js   # the reference under the same load
 *   SOAK_GATEWAY_CONFIG='{"guardrails":{"mode":"enforce","loopBacklogChars":0}}' ...   # merged over the gateway's config
 *   SOAK_ORGS=5000 node dist/bench/load/soak.js     # requests spread over 5,000 organizations, one key each
 *
 * SOAK_TARGET=proxy runs the bare undici proxy of the sustained bench (bench/load/proxy.ts: no auth, no limits, no
 * accounting) in place of the gateway, with the same node flags, the same upstream and the same load: the memory and
 * latency a Node server that only forwards has at that many connections, to read the gateway's rows against.
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../../src/memory-flags.js';
import { usdToNano } from '../../src/billing/money.js';
import { keyRecord, newKeyValue } from '../../src/keys/mint.js';
import { projectRoot } from '../../src/pool/pool.js';
import { createStore } from '../../src/store/index.js';
import { configFrom, freePort, guardModeFrom, nodeArgsFrom, procStats, startNode, waitForHttp, writeGatewayConfig } from './proc.js';

const KEY = 'sk-svc-soak-00000000000000000000000000';
const METRICS_TOKEN = 'soak-metrics';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
const REDIS = process.env.SOAK_REDIS_URL ?? null;
/** Bytes of a pasted document carried by every fifth request (0: none), for a run with larger bodies. */
const DOC_BYTES = Number(process.env.SOAK_DOC_BYTES ?? 0);
/**
 * Organizations the requests are spread over, one key each, in turn (default 1: the dev organization). They are
 * created in the store before the gateway starts (with their credit); the table then also shows what the host's
 * disk wrote (the embedded store's transactions touch pages of every organization they settle for).
 */
const ORGS = Number(process.env.SOAK_ORGS ?? 1);
/** Where the table goes (default bench/results/soak-<store>.md; empty: printed only). */
const OUT = process.env.SOAK_OUT;
/** SOAK_GUARD=enforce: the default guardrail mode (every request waits for its scores) instead of monitor. */
const GUARD_MODE = guardModeFrom('SOAK_GUARD');
/** What runs under the load: the gateway (default) or the bare undici proxy (the reference). */
const TARGET = process.env.SOAK_TARGET ?? 'gateway';
if (TARGET !== 'gateway' && TARGET !== 'proxy') throw new Error(`SOAK_TARGET must be gateway or proxy, not ${TARGET}`);
/** ' (429: 12, 503: 3)': the non-2xx answers by status, or nothing when there were none. */
function statusText(stats: Partial<Record<string, { count?: number }>> | undefined): string {
  const bad = Object.entries(stats ?? {}).filter(([code]) => !code.startsWith('2'));
  return bad.length === 0 ? '' : ` (${bad.map(([code, s]) => `${code}: ${s?.count ?? 0}`).join(', ')})`;
}
const DOC_WORDS = ['the', 'invoice', 'for', 'October', 'was', 'charged', 'twice', 'and', 'our', 'team', 'reviewed', 'each', 'ledger', 'entry', 'before', 'closing', 'ticket'];

/** A distinct pasted document of about DOC_BYTES bytes (request n's words). */
function soakDoc(n: number): string {
  const words: string[] = [];
  let len = 0;
  for (let i = 0; len < DOC_BYTES; i++) {
    const w = i % 11 === 0 ? `#${n}-${i}` : DOC_WORDS[(n + i * 7) % DOC_WORDS.length]!;
    words.push(w);
    len += w.length + 1;
  }
  return words.join(' ');
}

/** Resident MiB of the process's mappings of the LMDB file (part of RSS: file pages the process touched). */
function lmdbRssMiB(pid: number): number {
  let kb = 0;
  let inStore = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inStore = line.endsWith('store.lmdb');
    else if (inStore && line.startsWith('Rss:')) kb += Number(/\d+/.exec(line)?.[0] ?? 0);
  }
  return kb / 1024;
}

/** Request n: a system prompt and a distinct user turn; every third one streams. */
function soakBody(n: number): string {
  return JSON.stringify({
    model: 'gpt-4o-mini',
    stream: n % 3 === 0,
    max_tokens: 16,
    messages: [
      { role: 'system', content: 'You are a concise assistant for an engineering team.' },
      {
        role: 'user',
        content:
          DOC_BYTES > 0 && n % 5 === 0
            ? `Summarise this note (${n}) in one line:\n\n${soakDoc(n)}`
            : `Question ${n}: what does idempotent mean for request ${n % 1013}?`,
      },
    ],
  });
}

/** Where the gateway scored the prompts and how many worker threads it started, from its /metrics. */
async function scoringSummary(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const g = (name: string): string => new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? '?';
  return (
    `texts scored on the event loop at once ${g('svc_guard_scored_inline')}, in slices ${g('svc_guard_scored_sliced')}; ` +
    `worker threads started ${g('svc_pool_threads_started')}, live at the end ${g('svc_pool_threads')}`
  );
}

/** SOAK_ORGS organizations with a key each, created in the store the gateway will open; their keys. */
async function seedOrgs(dataDir: string): Promise<string[]> {
  const store = await createStore(REDIS ? { kind: 'redis', url: REDIS } : { kind: 'memory', snapshotPath: join(dataDir, 'store.msgpack') });
  const keys: string[] = [];
  try {
    for (let i = 0; i < ORGS; i++) {
      const id = `soak-org-${i}`;
      await store.createOrg({ id, name: id, status: 'active', createdAt: Date.now(), fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
      await store.topUp(id, usdToNano(1_000_000), `soak-seed-${id}`);
      const value = newKeyValue('sk-svc-');
      await store.createKey(keyRecord(id, 'soak', value));
      keys.push(value);
    }
  } finally {
    await store.close();
  }
  return keys;
}

/** Bytes written to the host's disks so far (/proc/diskstats, whole disks only; null where unreadable). */
function diskWrittenBytes(): number | null {
  try {
    let sectors = 0;
    for (const line of readFileSync('/proc/diskstats', 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && /^(sd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+n\d+)$/.test(f[2]!)) sectors += Number(f[9]);
    }
    return sectors * 512;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const root = projectRoot();
  const dir = mkdtempSync(join(tmpdir(), 'svc-soak-'));
  // Free ports, not fixed ones: a gateway left over from an interrupted run would otherwise answer the health check
  // while the new one fails to bind.
  const simPort = await freePort();
  const gwPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const configPath = join(dir, 'config.json');
  writeGatewayConfig(configPath, simUrl, {
    store: REDIS ? { kind: 'redis', url: REDIS } : { kind: 'memory' },
    guardrails: { mode: GUARD_MODE },
    ...(process.env.SOAK_LOG_LEVEL ? { log: { level: process.env.SOAK_LOG_LEVEL } } : {}),
    ...configFrom('SOAK_GATEWAY_CONFIG'),
  });
  const orgKeys = ORGS > 1 && TARGET === 'gateway' ? await seedOrgs(join(dir, 'data')) : [KEY];
  const sim = startNode([join(root, 'dist/src/cli.js'), 'sim', '--port', String(simPort)], {});
  const flags = [...GATEWAY_NODE_FLAGS, ...nodeArgsFrom('SOAK_GATEWAY_NODE_ARGS')];
  const gw =
    TARGET === 'proxy'
      ? startNode([...flags, join(root, 'dist/bench/load/proxy.js'), String(gwPort), simUrl], {})
      : startNode([...flags, join(root, 'dist/src/main.js')], {
          SVC_CONFIG: configPath,
          SVC_PORT: String(gwPort),
          SVC_DASHBOARD_PORT: '0',
          SVC_DEV_KEY: KEY,
          SVC_METRICS_TOKEN: METRICS_TOKEN,
          SVC_DEV_BOOTSTRAP: 'true',
          SVC_DATA_DIR: join(dir, 'data'),
        });
  try {
    await waitForHttp(`${simUrl}/_sim/health`);
    // The proxy has no health route: any answer it forwards from the simulator says it listens.
    await waitForHttp(`http://127.0.0.1:${gwPort}/${TARGET === 'proxy' ? '_sim/health' : 'healthz'}`);
    const samples: { t: number; requests: number; rssMiB: number; lmdbMiB: number }[] = [];
    let requests = 0;
    let sent = 0;
    const cpu0 = procStats(gw.pid!).cpuMs;
    const disk0 = diskWrittenBytes();
    const started = Date.now();
    const timer = setInterval(() => {
      samples.push({ t: Math.round((Date.now() - started) / 1000), requests, rssMiB: procStats(gw.pid!).rssMiB, lmdbMiB: lmdbRssMiB(gw.pid!) });
    }, SAMPLE_S * 1000);
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const run = autocannon(
        {
      url: `http://127.0.0.1:${gwPort}/v1/chat/completions`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 30,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      requests: [
        {
          setupRequest: (req) => {
            const n = sent++;
            if (orgKeys.length === 1) return { ...req, body: soakBody(n) };
            return { ...req, headers: { ...req.headers, authorization: `Bearer ${orgKeys[n % orgKeys.length]!}` }, body: soakBody(n) };
          },
        },
      ],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      run.on('response', () => {
        requests++;
      });
    });
    clearInterval(timer);
    const disk1 = diskWrittenBytes();
    const scoring = TARGET === 'proxy' ? '' : `; ${await scoringSummary(`http://127.0.0.1:${gwPort}`)}`;
    const peak = Math.max(...samples.map((s) => s.rssMiB));
    const end = procStats(gw.pid!);
    const hwm = end.peakMiB;
    const cpuPerReq = (end.cpuMs - cpu0) / Math.max(1, result.requests.total);
    const subject =
      TARGET === 'proxy' ? 'the bare undici proxy (the reference; no store, no guardrails)' : `${REDIS ? 'Redis' : 'embedded (LMDB, journal on)'} store`;
    const lines = [
      `# Soak: ${subject}, ${SECONDS} s, ${CONNECTIONS} connections`,
      '',
      (TARGET === 'proxy' ? 'Every prompt distinct' : `Default log level, guardrails in ${GUARD_MODE} mode, every prompt distinct`) +
        ', one request in three streaming' +
        (DOC_BYTES > 0 ? `, one in five pasting a ${DOC_BYTES}-byte document` : '') +
        (orgKeys.length > 1 ? `, spread over ${orgKeys.length} organizations (one key each, in turn).` : '.'),
      '',
      `requests ${result.requests.total} (${Math.round(result.requests.average)}/s), non-2xx ${result.non2xx}${statusText(result.statusCodeStats)}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; peak RSS ${peak.toFixed(0)} MiB ` +
        `of the samples, ${hwm.toFixed(0)} MiB VmHWM (the process's peak, start-up included); ` +
        `CPU ${cpuPerReq.toFixed(3)} ms per request (all of the process's threads)${scoring}` +
        (disk0 !== null && disk1 !== null ? `; the host's disks wrote ${((disk1 - disk0) / 2 ** 20).toFixed(0)} MiB (${((disk1 - disk0) / Math.max(1, result.requests.total) / 1024).toFixed(1)} KiB per request)` : ''),
      '',
      `| t (s) | requests | ${TARGET} RSS MiB | of which LMDB file pages MiB |`,
      '| ---: | ---: | ---: | ---: |',
      ...samples.map((s) => `| ${s.t} | ${s.requests} | ${s.rssMiB.toFixed(0)} | ${s.lmdbMiB.toFixed(1)} |`),
    ];
    const text = lines.join('\n') + '\n';
    process.stdout.write(text);
    const out = OUT ?? join(root, `bench/results/soak-${TARGET === 'proxy' ? 'proxy' : REDIS ? 'redis' : 'embedded'}${GUARD_MODE === 'enforce' ? '-enforce' : ''}.md`);
    if (out !== '') writeFileSync(out, text);
  } finally {
    gw.kill('SIGTERM');
    sim.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(String((e as Error).stack ?? e) + '\n');
  process.exit(1);
});
