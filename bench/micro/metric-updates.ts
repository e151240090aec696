/**
 * Micro-benchmark: the metric updates one served request makes (requests and latency of its route, one upstream
 * attempt, cost and two token counts of its model, guardrail time), through prom-client's bound children as
 * metrics.ts did before and through the bound series of src/obs/bound-metrics.ts, interleaved rounds.
 *
 *   node dist/bench/micro/metric-updates.js        (N=2,000,000 requests per round, ROUNDS=3)
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from '../../src/obs/bound-metrics.js';
import { GUARD_BUCKETS_MS, LATENCY_BUCKETS_MS } from '../../src/obs/metrics.js';

const LATENCY = [...LATENCY_BUCKETS_MS];
const GUARD = [...GUARD_BUCKETS_MS];

/** The series one request updates, bound once. */
interface RequestSeries {
  requests: { inc(by?: number): void };
  latency: { observe(v: number): void };
  attempt: { inc(by?: number): void };
  cost: { inc(by?: number): void };
  input: { inc(by?: number): void };
  output: { inc(by?: number): void };
  guard: { observe(v: number): void };
}

/** One request's updates (both variants share this code, so its call sites see both kinds of series). */
function updater(s: RequestSeries): (i: number) => void {
  return (i) => {
    s.requests.inc();
    s.latency.observe(i % 30);
    s.attempt.inc();
    s.cost.inc(1234);
    s.input.inc(20);
    s.output.inc(16);
    s.guard.observe((i % 7) / 3);
  };
}

function viaPromClient(): RequestSeries {
  const registers = [new Registry()];
  const requests = new Counter({ name: 'r', help: 'r', labelNames: ['route', 'status', 'code'] as const, registers });
  const attempts = new Counter({ name: 'a', help: 'a', labelNames: ['provider', 'outcome'] as const, registers });
  const cost = new Counter({ name: 'c', help: 'c', labelNames: ['model'] as const, registers });
  const tokens = new Counter({ name: 't', help: 't', labelNames: ['model', 'kind'] as const, registers });
  const latency = new Histogram({ name: 'l', help: 'l', labelNames: ['route'] as const, buckets: LATENCY, registers });
  const guard = new Histogram({ name: 'g', help: 'g', buckets: GUARD, registers });
  return {
    requests: requests.labels('/v1/chat/completions', '200', ''),
    latency: latency.labels('/v1/chat/completions'),
    attempt: attempts.labels('openai', '200'),
    cost: cost.labels('gpt-4o-mini'),
    input: tokens.labels('gpt-4o-mini', 'input'),
    output: tokens.labels('gpt-4o-mini', 'output'),
    guard,
  };
}

function viaBound(): RequestSeries {
  const tokens = new BoundCounter('t', 't', ['model', 'kind']);
  return {
    requests: new BoundCounter('r', 'r', ['route', 'status', 'code']).child('/v1/chat/completions', '200', ''),
    latency: new BoundHistogram('l', 'l', ['route'], LATENCY).child('/v1/chat/completions'),
    attempt: new BoundCounter('a', 'a', ['provider', 'outcome']).child('openai', '200'),
    cost: new BoundCounter('c', 'c', ['model']).child('gpt-4o-mini'),
    input: tokens.child('gpt-4o-mini', 'input'),
    output: tokens.child('gpt-4o-mini', 'output'),
    guard: new BoundHistogram('g', 'g', [], GUARD).child(),
  };
}

const n = Number(process.env['N'] ?? 2_000_000);
const rounds = Number(process.env['ROUNDS'] ?? 3);
const variants: [string, (i: number) => void][] = [
  ['prom-client bound children', updater(viaPromClient())],
  ['bound series (bound-metrics.ts)', updater(viaBound())],
];
console.log('\nMetric updates of one request (bench/micro/metric-updates.ts), %d requests per round:\n', n);
console.log('| variant | round | ns per request (7 updates) |');
console.log('|---|---:|---:|');
for (let round = 1; round <= rounds; round++) {
  for (const [name, update] of variants) {
    for (let i = 0; i < 10_000; i++) update(i);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) update(i);
    const ns = Number(process.hrtime.bigint() - t0) / n;
    console.log(`| ${name} | ${round} | ${ns.toFixed(0)} |`);
  }
}
