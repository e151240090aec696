/** A minimal Prometheus registry (text exposition format 0.0.4): counters and histograms with labels. */
type Labels = Record<string, string>;

function labelKey(l: Labels): string {
  const parts = Object.keys(l)
    .sort()
    .map((k) => `${k}="${String(l[k]).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

class Counter {
  readonly #values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = labelKey(labels);
    this.#values.set(k, (this.#values.get(k) ?? 0) + by);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of this.#values) lines.push(`${this.name}${k} ${v}`);
    return lines.join('\n');
  }
}

class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; n: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(labels: Labels, v: number): void {
    const k = labelKey(labels);
    let s = this.#series.get(k);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, n: 0 };
      this.#series.set(k, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (v <= this.buckets[i]!) s.counts[i]!++;
    s.sum += v;
    s.n++;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.#series.values()) {
      this.buckets.forEach((b, i) => lines.push(`${this.name}_bucket${labelKey({ ...s.labels, le: String(b) })} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${labelKey({ ...s.labels, le: '+Inf' })} ${s.n}`);
      lines.push(`${this.name}_sum${labelKey(s.labels)} ${s.sum}`);
      lines.push(`${this.name}_count${labelKey(s.labels)} ${s.n}`);
    }
    return lines.join('\n');
  }
}

export class Metrics {
  readonly requests = new Counter('svc_requests_total', 'Inference requests by route, status and error code.');
  readonly upstreamAttempts = new Counter('svc_upstream_attempts_total', 'Provider calls by provider and outcome.');
  readonly costNano = new Counter('svc_cost_nano_usd_total', 'Settled cost in nano-USD by model.');
  readonly tokens = new Counter('svc_tokens_total', 'Billed tokens by model and kind.');
  readonly backpressure = new Counter('svc_stream_backpressure_total', 'Stream writes that found the client socket full.');
  readonly settlementFailures = new Counter('svc_settlement_flush_failures_total', 'Failed settlement flushes.');
  readonly latency = new Histogram('svc_request_latency_ms', 'Gateway time to first byte (ms).', [
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000,
  ]);
  readonly guardMs = new Histogram('svc_guardrail_ms', 'Guardrail scoring time (ms).', [0.5, 1, 2, 5, 10, 25, 50, 100, 250]);
  readonly guardFlags = new Counter('svc_guardrail_flags_total', 'Requests a guardrail category flagged, by category and mode (enforce: refused; monitor: served).');
  gauges: (() => string)[] = [];

  render(): string {
    return (
      [this.requests, this.upstreamAttempts, this.costNano, this.tokens, this.backpressure, this.settlementFailures, this.latency, this.guardMs, this.guardFlags]
        .map((m) => m.render())
        .concat(this.gauges.map((g) => g()))
        .join('\n') + '\n'
    );
  }
}
