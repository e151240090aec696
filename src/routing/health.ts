import type { EndpointConfig } from '../config/schema.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

interface EndpointStats {
  /** EWMA of time to first byte (ms); null until the first sample. */
  ttfbMs: number | null;
  /** EWMA of total time per output token (ms). */
  perTokenMs: number | null;
  lastSampleAt: number;
  consecutiveFailures: number;
  state: BreakerState;
  openedAt: number;
  /** A half-open probe is in flight: other requests keep away. */
  probing: boolean;
}

export interface HealthOptions {
  /** EWMA weight of a new sample (0..1). */
  alpha: number;
  /** Consecutive failover-class failures that open the breaker. */
  failureThreshold: number;
  /** Open -> half-open after this long. */
  cooldownMs: number;
  /** An endpoint not sampled for this long gets one exploratory request (to notice recovery). */
  probeIntervalMs: number;
  now?: () => number;
}

export const DEFAULT_HEALTH: HealthOptions = { alpha: 0.3, failureThreshold: 3, cooldownMs: 30_000, probeIntervalMs: 15_000 };

export function endpointKey(ep: EndpointConfig): string {
  return `${ep.provider}|${ep.baseUrl}|${ep.upstreamModel}`;
}

/**
 * Per-endpoint latency estimates (EWMA of time to first byte and of time per output token) and a circuit
 * breaker: opens after `failureThreshold` consecutive failover-class failures, half-opens after the
 * cool-down (one probe request), closes on success. Cheap on the hot path: a Map lookup per candidate.
 */
export class EndpointHealth {
  readonly #stats = new Map<string, EndpointStats>();
  readonly #now: () => number;

  constructor(private readonly opts: HealthOptions = DEFAULT_HEALTH) {
    this.#now = opts.now ?? Date.now;
  }

  #get(key: string): EndpointStats {
    let s = this.#stats.get(key);
    if (!s) {
      s = { ttfbMs: null, perTokenMs: null, lastSampleAt: 0, consecutiveFailures: 0, state: 'closed', openedAt: 0, probing: false };
      this.#stats.set(key, s);
    }
    return s;
  }

  /** Forgets an endpoint (its breaker closed, its estimates gone): what answers at its URL now is a new server. */
  forget(key: string): void {
    this.#stats.delete(key);
  }

  state(key: string): BreakerState {
    const s = this.#get(key);
    if (s.state === 'open' && this.#now() - s.openedAt >= this.opts.cooldownMs) s.state = 'half-open';
    return s.state;
  }

  /** May a request go to this endpoint now? A half-open endpoint admits one probe at a time. */
  available(key: string): boolean {
    const st = this.state(key);
    if (st === 'closed') return true;
    if (st === 'open') return false;
    return !this.#get(key).probing;
  }

  /** Marks the start of a call (a half-open endpoint's single probe). */
  begin(key: string): void {
    const s = this.#get(key);
    if (this.state(key) === 'half-open') s.probing = true;
  }

  success(key: string, ttfbMs: number): void {
    const s = this.#get(key);
    const a = this.opts.alpha;
    s.ttfbMs = s.ttfbMs === null ? ttfbMs : s.ttfbMs + a * (ttfbMs - s.ttfbMs);
    s.lastSampleAt = this.#now();
    s.consecutiveFailures = 0;
    s.state = 'closed';
    s.probing = false;
  }

  /** Total time of a finished answer, for the per-output-token estimate. */
  completed(key: string, totalMs: number, outputTokens: number): void {
    if (outputTokens <= 0) return;
    const s = this.#get(key);
    const v = totalMs / outputTokens;
    s.perTokenMs = s.perTokenMs === null ? v : s.perTokenMs + this.opts.alpha * (v - s.perTokenMs);
  }

  /** A failover-class failure (429, 503, 529, connect-phase). */
  failure(key: string): void {
    const s = this.#get(key);
    s.consecutiveFailures++;
    s.probing = false;
    s.lastSampleAt = this.#now();
    if (s.state === 'half-open' || s.consecutiveFailures >= this.opts.failureThreshold) {
      s.state = 'open';
      s.openedAt = this.#now();
    }
  }

  /** Expected latency (ms) to rank endpoints; unknown endpoints rank first so they get measured. */
  estimate(key: string): number {
    return this.#get(key).ttfbMs ?? 0;
  }

  /** True when the endpoint's estimate is stale and it deserves an exploratory request. */
  stale(key: string): boolean {
    const s = this.#get(key);
    return s.ttfbMs !== null && this.#now() - s.lastSampleAt >= this.opts.probeIntervalMs;
  }

  /** When this endpoint's breaker opened, if it is open (or half-open); null when closed. */
  openedAt(key: string): number | null {
    const s = this.#get(key);
    return s.state === 'closed' ? null : s.openedAt;
  }

  /** Adopts a breaker another node opened (shared through the Store); keeps the later opening. */
  openFromPeer(key: string, openedAt: number): void {
    const s = this.#get(key);
    if (this.#now() - openedAt >= this.opts.cooldownMs) return;
    if (s.state !== 'closed' && s.openedAt >= openedAt) return;
    s.state = 'open';
    s.openedAt = openedAt;
    s.probing = false;
  }

  /** Claims the exploratory request of a stale endpoint (so only one request probes it). */
  claimProbe(key: string): void {
    this.#get(key).lastSampleAt = this.#now();
  }

  /** Prometheus gauges: per-endpoint latency estimates and breaker state (`/metrics`). */
  renderMetrics(): string {
    const lines = [
      '# HELP svc_endpoint_latency_ms Endpoint latency estimates (EWMA): time to first byte and per output token.',
      '# TYPE svc_endpoint_latency_ms gauge',
      '# HELP svc_endpoint_breaker_open 1 while the endpoint circuit breaker is open or half-open.',
      '# TYPE svc_endpoint_breaker_open gauge',
    ];
    for (const [key, s] of this.#stats) {
      const [provider = '', baseUrl = '', model = ''] = key.split('|');
      let host = baseUrl;
      try {
        host = new URL(baseUrl).host;
      } catch {
        /* keep the raw value */
      }
      const labels = `provider="${provider}",host="${host}",model="${model.replace(/"/g, '')}"`;
      if (s.ttfbMs !== null) lines.push(`svc_endpoint_latency_ms{${labels},kind="first_byte"} ${s.ttfbMs.toFixed(3)}`);
      if (s.perTokenMs !== null) lines.push(`svc_endpoint_latency_ms{${labels},kind="per_output_token"} ${s.perTokenMs.toFixed(3)}`);
      lines.push(`svc_endpoint_breaker_open{${labels}} ${this.state(key) === 'closed' ? 0 : 1}`);
    }
    return lines.join('\n');
  }
}
