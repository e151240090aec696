import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/obs/metrics.js';

describe('Metrics', () => {
  it('keeps the metric names and renders bound route series, label values escaped', async () => {
    const m = new Metrics();
    const r = m.forRoute('/v1/chat/completions');
    expect(m.forRoute('/v1/chat/completions')).toBe(r); // bound once
    r.done(200, '', 3);
    r.done(200, '', 7);
    r.done(429, 'rate_limited', 0.5);
    m.settled('a"b\\c', 5, 0, 0);
    m.settled('m', 0, 0, 0);
    m.guardMs.observe(1.5);
    m.settlementFailures.inc();
    m.gauge('svc_settlement_pending', 'Settlement entries queued.', () => 4);
    m.gauges.push(() => '# TYPE svc_endpoint_breaker_open gauge\nsvc_endpoint_breaker_open{model="x"} 0');
    const text = await m.render();
    expect(text).toMatch(/^svc_requests_total\{route="\/v1\/chat\/completions",status="200",code=""\} 2$/m);
    expect(text).toMatch(/^svc_requests_total\{route="\/v1\/chat\/completions",status="429",code="rate_limited"\} 1$/m);
    expect(text).toMatch(/^svc_request_latency_ms_bucket\{le="5",route="\/v1\/chat\/completions"\} 2$/m);
    expect(text).toMatch(/^svc_request_latency_ms_count\{route="\/v1\/chat\/completions"\} 3$/m);
    expect(text).toContain('svc_cost_nano_usd_total{model="a\\"b\\\\c"} 5');
    expect(text).toContain('svc_tokens_total{model="m",kind="input"} 0');
    expect(text).toMatch(/^svc_guardrail_ms_count 1$/m);
    expect(text).toMatch(/^svc_settlement_flush_failures_total 1$/m);
    expect(text).toMatch(/^svc_settlement_pending 4$/m);
    expect(text.endsWith('svc_endpoint_breaker_open{model="x"} 0\n')).toBe(true);
    for (const name of ['svc_upstream_attempts_total', 'svc_stream_backpressure_total']) expect(text).toContain(`# TYPE ${name} counter`);
  });
});
