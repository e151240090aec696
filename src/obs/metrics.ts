/**
 * Prometheus metrics, one set per gateway (tests run several in one process). The metrics updated on every
 * request (requests, latency, upstream attempts, cost, tokens, guardrail time) are bound series of
 * bound-metrics.ts: a route's, a model's or an outcome's series is looked up once and then updated by an
 * addition. The rest (rare events, gauges read at scrape time) are prom-client metrics in its registry, and
 * /metrics renders both.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram, type CounterCell, type HistogramCell } from './bound-metrics.js';

/** The request metrics of one route, bound at first use. */
export class RouteMetrics {
  readonly #requests: BoundCounter;
  readonly #route: string;
  readonly #byOutcome = new Map<string | number, CounterCell>();
  readonly #latency: HistogramCell;

  constructor(requests: BoundCounter, latency: BoundHistogram, route: string) {
    this.#requests = requests;
    this.#route = route;
    this.#latency = latency.child(route);
  }

  /** One finished request: its status, its error code ('' when served) and its latency. */
  done(status: number, code: string, latencyMs: number): void {
    // Keyed by the number when served (no string built on the common path), by status and code otherwise.
    const k = code ? `${status} ${code}` : status;
    let c = this.#byOutcome.get(k);
    if (!c) {
      c = this.#requests.child(this.#route, String(status), code);
      this.#byOutcome.set(k, c);
    }
    c.inc();
    this.#latency.observe(latencyMs);
  }
}

/** Bucket bounds (ms) of the request latency and guardrail time histograms. */
export const LATENCY_BUCKETS_MS: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000];
export const GUARD_BUCKETS_MS: readonly number[] = [0.5, 1, 2, 5, 10, 25, 50, 100, 250];

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new BoundCounter('svc_requests_total', 'Inference requests by route, status and error code.', ['route', 'status', 'code']);
  readonly upstreamAttempts = new BoundCounter('svc_upstream_attempts_total', 'Provider calls by provider and outcome.', ['provider', 'outcome']);
  readonly costNano = new BoundCounter('svc_cost_nano_usd_total', 'Settled cost in nano-USD by model.', ['model']);
  readonly tokens = new BoundCounter('svc_tokens_total', 'Billed tokens by model and kind.', ['model', 'kind']);
  readonly latency = new BoundHistogram('svc_request_latency_ms', 'Gateway time to first byte (ms).', ['route'], LATENCY_BUCKETS_MS);
  readonly #guardMs = new BoundHistogram('svc_guardrail_ms', 'Guardrail scoring time (ms).', [], GUARD_BUCKETS_MS);
  /** Guardrail scoring time of one request (ms). */
  readonly guardMs: HistogramCell = this.#guardMs.child();
  /** Rendered in this order, before prom-client's registry. */
  readonly #bound = [this.requests, this.upstreamAttempts, this.costNano, this.tokens, this.latency, this.#guardMs];
  readonly backpressure = new Counter({
    name: 'svc_stream_backpressure_total',
    help: 'Stream writes that found the client socket full.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly settlementFailures = new Counter({
    name: 'svc_settlement_flush_failures_total',
    help: 'Failed settlement flushes.',
    registers: [this.registry],
  });
  readonly guardFlags = new Counter({
    name: 'svc_guardrail_flags_total',
    help: 'Requests a guardrail category flagged, by category and mode (enforce: refused; monitor: served).',
    labelNames: ['category', 'mode'] as const,
    registers: [this.registry],
  });
  readonly guardSecondStage = new Counter({
    name: 'svc_guardrail_second_stage_total',
    help: 'Calls to the guardrail second stage, by outcome (answered; timeout or error: the first stage stood).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /** Gauges rendered by their owners at scrape time (Prometheus text, no trailing newline). */
  gauges: (() => string)[] = [];
  readonly #collected: Gauge[] = [];
  readonly #routes = new Map<string, RouteMetrics>();

  forRoute(route: string): RouteMetrics {
    let m = this.#routes.get(route);
    if (!m) {
      m = new RouteMetrics(this.requests, this.latency, route);
      this.#routes.set(route, m);
    }
    return m;
  }

  readonly #attempts = new Map<string, CounterCell>();
  readonly #settled = new Map<string, { cost: CounterCell; input: CounterCell; output: CounterCell }>();

  /** One provider call and its outcome (status code or failure kind); the labelled child is bound once. */
  upstreamAttempt(provider: string, outcome: string): void {
    const k = `${provider}\u0000${outcome}`;
    let c = this.#attempts.get(k);
    if (!c) {
      c = this.upstreamAttempts.child(provider, outcome);
      this.#attempts.set(k, c);
    }
    c.inc();
  }

  /** A settled request's cost (nano-USD) and billed tokens, by model; the labelled children are bound once. */
  settled(model: string, costNano: number, inputTokens: number, outputTokens: number): void {
    let c = this.#settled.get(model);
    if (!c) {
      c = { cost: this.costNano.child(model), input: this.tokens.child(model, 'input'), output: this.tokens.child(model, 'output') };
      this.#settled.set(model, c);
    }
    c.cost.inc(costNano);
    c.input.inc(inputTokens);
    c.output.inc(outputTokens);
  }

  /** A gauge read at scrape time. */
  gauge(name: string, help: string, read: () => number): void {
    const g = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
    this.#collected.push(g);
  }

  readonly contentType = 'text/plain; version=0.0.4; charset=utf-8';

  async render(): Promise<string> {
    const bound = this.#bound.map((m) => m.render()).join('\n\n');
    const text = `${bound}\n\n${await this.registry.metrics()}`;
    const extra = this.gauges.map((g) => g()).filter((s) => s.length > 0);
    return extra.length ? `${text}${extra.join('\n')}\n` : text;
  }
}
