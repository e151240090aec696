/**
 * Prometheus metrics on prom-client, one registry per gateway (tests run several in one process).
 * prom-client keys a series by its label values in the declared label order (no sort, no regex per call)
 * and escapes label values only when /metrics is scraped. The per-request metrics are bound once per
 * route (`forRoute`), so the request path does one Map lookup and two increments.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

type RequestLabels = 'route' | 'status' | 'code';

/** The request metrics of one route, bound at first use. */
export class RouteMetrics {
  readonly #requests: Counter<RequestLabels>;
  readonly #route: string;
  readonly #byOutcome = new Map<string, { inc: (by?: number) => void }>();
  readonly #latency: { observe: (v: number) => void };

  constructor(requests: Counter<RequestLabels>, latency: Histogram<'route'>, route: string) {
    this.#requests = requests;
    this.#route = route;
    this.#latency = latency.labels(route);
  }

  /** One finished request: its status, its error code ('' when served) and its latency. */
  done(status: number, code: string, latencyMs: number): void {
    const k = code ? `${status} ${code}` : String(status);
    let c = this.#byOutcome.get(k);
    if (!c) {
      c = this.#requests.labels(this.#route, String(status), code);
      this.#byOutcome.set(k, c);
    }
    c.inc();
    this.#latency.observe(latencyMs);
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'svc_requests_total',
    help: 'Inference requests by route, status and error code.',
    labelNames: ['route', 'status', 'code'] as const,
    registers: [this.registry],
  });
  readonly upstreamAttempts = new Counter({
    name: 'svc_upstream_attempts_total',
    help: 'Provider calls by provider and outcome.',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly costNano = new Counter({
    name: 'svc_cost_nano_usd_total',
    help: 'Settled cost in nano-USD by model.',
    labelNames: ['model'] as const,
    registers: [this.registry],
  });
  readonly tokens = new Counter({
    name: 'svc_tokens_total',
    help: 'Billed tokens by model and kind.',
    labelNames: ['model', 'kind'] as const,
    registers: [this.registry],
  });
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
  readonly latency = new Histogram({
    name: 'svc_request_latency_ms',
    help: 'Gateway time to first byte (ms).',
    labelNames: ['route'] as const,
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000],
    registers: [this.registry],
  });
  readonly guardMs = new Histogram({
    name: 'svc_guardrail_ms',
    help: 'Guardrail scoring time (ms).',
    buckets: [0.5, 1, 2, 5, 10, 25, 50, 100, 250],
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

  readonly #attempts = new Map<string, { inc: (by?: number) => void }>();
  readonly #settled = new Map<string, { cost: { inc: (by: number) => void }; input: { inc: (by: number) => void }; output: { inc: (by: number) => void } }>();

  /** One provider call and its outcome (status code or failure kind); the labelled child is bound once. */
  upstreamAttempt(provider: string, outcome: string): void {
    const k = `${provider}\u0000${outcome}`;
    let c = this.#attempts.get(k);
    if (!c) {
      c = this.upstreamAttempts.labels(provider, outcome);
      this.#attempts.set(k, c);
    }
    c.inc();
  }

  /** A settled request's cost (nano-USD) and billed tokens, by model; the labelled children are bound once. */
  settled(model: string, costNano: number, inputTokens: number, outputTokens: number): void {
    let c = this.#settled.get(model);
    if (!c) {
      c = { cost: this.costNano.labels(model), input: this.tokens.labels(model, 'input'), output: this.tokens.labels(model, 'output') };
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
    const text = await this.registry.metrics();
    const extra = this.gauges.map((g) => g()).filter((s) => s.length > 0);
    return extra.length ? `${text}${extra.join('\n')}\n` : text;
  }
}
