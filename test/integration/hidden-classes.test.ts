/**
 * No hidden class (V8 map) made per request. V8 keeps maps in the old generation, so a request that makes one
 * costs a runtime call and old-space garbage, makes the property reads that see it megamorphic, and, when the
 * map's descriptors hold the request's own closures (an object literal with getters), keeps the whole request
 * alive through young collections until the next full one: the gateway promoted ~6.5 KB of every request
 * that way (bench/results/cpu.md, session 13). The usual cause is a field added to an object made by a
 * spread (`{ ...x, extra }`): such an object's map is outside the transition tree, so V8 caches no
 * transition from it and makes a new map every time.
 *
 * The real gateway runs with `--log-maps --log-code` in front of the simulator (in this test's process, so the
 * simulator's own maps are not in the log); after a warm-up over every text route and the common refusals, the
 * same mix runs again, and the map transitions V8 could not cache (logged with the reason "prototype": the parent
 * map is detached) are counted, by the function that made them where the log says.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { simulatedCatalog } from '../../src/dev/bootstrap.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { startSimulator } from '../../src/sim/server.js';
import { startGatewayProcess, stopGatewayProcess } from '../helpers/gateway-process.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const KEY = 'sk-svc-maps-test-key-0123456789abcdefghijklmnopqr';
const WARMUP_ROUNDS = 40;
const MEASURED_ROUNDS = 60;

const tempDir = tempDirs('svc-maps-');

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  key?: string;
  status: number;
}

const user = (i: number) => [{ role: 'user', content: `say something short about the number ${i}` }];
const MIX: ((i: number) => Call)[] = [
  (i) => ({ method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: user(i), max_tokens: 8 }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: user(i), max_tokens: 8, stream: true }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/chat/completions', body: { model: 'anthropic/claude-3.5-haiku', messages: user(i), max_tokens: 8, user: 'u-1', stream: i % 2 === 0 }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/messages', body: { model: 'gpt-4o-mini', messages: user(i), max_tokens: 8, stream: i % 2 === 0 }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/messages', body: { model: 'anthropic/claude-3.5-haiku', messages: user(i), max_tokens: 8, stream: i % 2 === 1 }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/completions', body: { model: 'gpt-4o-mini', prompt: `say ${i}`, max_tokens: 8, stream: i % 2 === 0 }, status: 200 }),
  (i) => ({ method: 'POST', path: '/v1/responses', body: { model: 'gpt-4o-mini', input: `say ${i}`, max_output_tokens: 16, stream: i % 2 === 0, store: false }, status: 200 }),
  () => ({ method: 'GET', path: '/v1/models', status: 200 }),
  () => ({ method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: 'not a list' }, status: 400 }),
  () => ({ method: 'POST', path: '/v1/chat/completions', body: { model: 'no-such-model', messages: user(0) }, status: 404 }),
  () => ({ method: 'POST', path: '/v1/messages', body: { model: 'no-such-model', messages: user(0), max_tokens: 8 }, status: 404 }),
  () => ({ method: 'GET', path: '/v1/no-such-route', status: 404 }),
];

async function send(url: string, c: Call): Promise<number> {
  const res = await request(url + c.path, {
    method: c.method,
    headers: { authorization: `Bearer ${c.key ?? KEY}`, 'content-type': 'application/json' },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  await res.body.text();
  return res.statusCode;
}

/** The uncached map transitions in `log` after byte `from`, by the function (script:line:column) that made them. */
function detachedTransitions(log: string, from: number): Map<string, number> {
  // Code objects by start address (every code-creation in the log: the ones made during warm-up run later too).
  const code: [number, number, string][] = [];
  for (const line of log.split('\n')) {
    if (!line.startsWith('code-creation,')) continue;
    const f = line.split(',');
    const start = parseInt(f[4] ?? '', 16);
    const size = Number(f[5]);
    if (Number.isFinite(start) && Number.isFinite(size)) code.push([start, size, f.slice(6, -2).join(',').trim()]);
  }
  code.sort((a, b) => a[0] - b[0]);
  const where = (pc: number): string => {
    let lo = 0;
    let hi = code.length - 1;
    let found: [number, number, string] | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (code[mid]![0] <= pc) {
        found = code[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found !== undefined && pc < found[0] + found[1] ? found[2] : '';
  };
  const out = new Map<string, number>();
  for (const line of log.slice(from).split('\n')) {
    if (!line.startsWith('map,Transition,')) continue;
    // map,Transition,time,from,to,pc,line,column,reason,name
    const f = line.split(',');
    if (f[8] !== 'prototype') continue;
    const site = `${where(parseInt(f[5] ?? '', 16)) || `line ${f[6]}:${f[7]} of interpreted code`} adds "${f.slice(9).join(',')}"`;
    out.set(site, (out.get(site) ?? 0) + 1);
  }
  return out;
}

describe('hidden classes per request', () => {
  it('a mix of every text route and the common refusals makes no new map per request once warm', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const logfile = join(dir, 'v8.log');
    const config = join(dir, 'config.json');
    const sim = await startSimulator({});
    writeFileSync(config, JSON.stringify({ models: simulatedCatalog(DEMO_CATALOG, {}, sim.url).models, dev: { creditUsd: 1_000 } }));
    const gw = await startGatewayProcess(
      { SVC_DATA_DIR: join(dir, 'data'), SVC_CONFIG: config, SVC_DEV_BOOTSTRAP: 'true', SVC_DEV_KEY: KEY, SVC_GUARDRAILS_MODE: 'monitor' },
      { nodeArgs: ['--log-maps', '--log-code', `--logfile=${logfile}`, '--no-logfile-per-isolate'] },
    );
    let requests = 0;
    try {
      const round = async (i: number): Promise<void> => {
        for (const make of MIX) {
          const c = make(i);
          expect(await send(gw.url, c), `${c.method} ${c.path}`).toBe(c.status);
          requests++;
        }
      };
      for (let i = 0; i < WARMUP_ROUNDS; i++) await round(i);
      // A bad key a few times (below the per-address failure throttle): the 401 path.
      for (let i = 0; i < 3; i++) expect(await send(gw.url, { ...MIX[0]!(i), key: 'sk-svc-not-a-key-000000000000000000000', status: 401 })).toBe(401);
      await new Promise((r) => setTimeout(r, 200)); // V8 writes the log through a buffer
      const mark = statSync(logfile).size;
      requests = 0;
      for (let i = WARMUP_ROUNDS; i < WARMUP_ROUNDS + MEASURED_ROUNDS; i++) await round(i);
      for (let i = 0; i < 3; i++) expect(await send(gw.url, { ...MIX[0]!(i), key: 'sk-svc-not-a-key-000000000000000000000', status: 401 })).toBe(401);
      requests += 3;
      await stopGatewayProcess(gw); // the log is complete once the process is gone
      const sites = detachedTransitions(readFileSync(logfile, 'latin1'), mark);
      const total = [...sites.values()].reduce((a, b) => a + b, 0);
      const report = [...sites].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([s, n]) => `${n} x ${s}`).join('\n');
      // A map made per request would give at least `requests` here (~720); what remains is start-up work that
      // happens to fall late (a new connection's stream options, a lazily loaded module): a handful.
      expect(total, `new maps after warm-up over ${requests} requests:\n${report}`).toBeLessThan(requests / 20);
    } finally {
      await stopGatewayProcess(gw);
      await sim.close();
    }
  });
});
