/**
 * Counters and histograms for the per-request metrics, whose label sets are bound once: a bound series is a plain
 * numeric cell, so an update on the request path is an addition and allocates nothing. prom-client's bound children
 * (`counter.labels(...)`) still build their label hash string and validate the label names on every call: a request's
 * seven updates (requests, latency, upstream attempt, cost, two token counts, guardrail time) cost 2.8-4.8 us through
 * prom-client against 0.1-0.2 us as cells (bench/micro/metric-updates.ts), and prom-client's label hashes were ~2% of
 * the bytes a request allocates (a sampling allocation profile under load).
 *
 * Rendered in the Prometheus text format (0.0.4) exactly as prom-client renders the same metric: labels in declared
 * order, `le` first on buckets, cumulative bucket counts, label values escaped at scrape time only. Metrics that are
 * not updated per request stay on prom-client (metrics.ts).
 */

/** HELP text as the text format writes it: backslash and newline escaped. */
function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A label value as the text format writes it: double quote escaped too. */
function escapeLabel(v: string): string {
  return escapeHelp(v).replace(/"/g, '\\"');
}

/** A sample value as prom-client writes it. */
function sample(v: number): string {
  if (Number.isNaN(v)) return 'Nan';
  if (!Number.isFinite(v)) return v < 0 ? '-Inf' : '+Inf';
  return String(v);
}

/** `a="x",b="y"` for the label names and values (empty when there are none). */
function labelText(names: readonly string[], values: readonly string[]): string {
  let out = '';
  for (let i = 0; i < names.length; i++) out += `${i > 0 ? ',' : ''}${names[i]}="${escapeLabel(values[i] ?? '')}"`;
  return out;
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;
}

/** One series of a BoundCounter. */
export class CounterCell {
  value = 0;
  constructor(readonly labels: string) {}

  inc(by = 1): void {
    this.value += by;
  }
}

/** A series of a BoundHistogram: a count per bucket (the last is +Inf), the sum and the count. */
export class HistogramCell {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: string,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]! += 1;
    this.sum += v;
    this.count += 1;
  }
}

/** Series keyed by their label values, made on first use. */
abstract class BoundMetric<C extends CounterCell | HistogramCell> {
  readonly #cells = new Map<string, C>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** The series of these label values (in declared order). Bind it once and keep it: the lookup builds a key. */
  child(...values: string[]): C {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name}: expected ${this.labelNames.length} label values, got ${values.length}`);
    }
    const key = JSON.stringify(values);
    let c = this.#cells.get(key);
    if (c === undefined) {
      c = this.make(labelText(this.labelNames, values));
      this.#cells.set(key, c);
    }
    return c;
  }

  protected abstract make(labels: string): C;

  protected get cells(): IterableIterator<C> {
    return this.#cells.values();
  }

  abstract render(): string;
}

export class BoundCounter extends BoundMetric<CounterCell> {
  protected make(labels: string): CounterCell {
    return new CounterCell(labels);
  }

  render(): string {
    const lines = [header(this.name, this.help, 'counter')];
    for (const c of this.cells) lines.push(`${this.name}${c.labels ? `{${c.labels}}` : ''} ${sample(c.value)}`);
    return lines.join('\n');
  }
}

export class BoundHistogram extends BoundMetric<HistogramCell> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i]! > buckets[i - 1]!)) throw new Error(`${name}: buckets must increase`);
    }
  }

  protected make(labels: string): HistogramCell {
    return new HistogramCell(labels, this.buckets);
  }

  render(): string {
    const lines = [header(this.name, this.help, 'histogram')];
    for (const c of this.cells) {
      const rest = c.labels ? `,${c.labels}` : '';
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += c.counts[i]!;
        lines.push(`${this.name}_bucket{le="${this.buckets[i]}"${rest}} ${sample(cumulative)}`);
      }
      lines.push(`${this.name}_bucket{le="+Inf"${rest}} ${sample(c.count)}`);
      const own = c.labels ? `{${c.labels}}` : '';
      lines.push(`${this.name}_sum${own} ${sample(c.sum)}`);
      lines.push(`${this.name}_count${own} ${sample(c.count)}`);
    }
    return lines.join('\n');
  }
}
