import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_TOKEN, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

const chat = (t: TestGateway): Promise<Response> =>
  fetch(`${t.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
  });

async function expectJsonError(res: Response, status: number, code: string): Promise<string> {
  const body = (await res.json()) as { error: { message: string; type: string; code?: string } };
  expect(res.status).toBe(status);
  expect(body.error.code).toBe(code);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('x-svc-request-id')).toBeTruthy();
  return body.error.message;
}

describe('GET /metrics requires the operator bearer token (SVC_METRICS_TOKEN)', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
    expect((await chat(t)).status).toBe(200); // a served request puts hosts and spend in the scrape
  });
  afterAll(async () => t.close());

  it('the served request left one JSON log line with the request fields', () => {
    const lines = t.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((o) => o.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      route: '/v1/chat/completions',
      status: 200,
      key_alias: expect.any(String),
      org_id: t.orgId,
      model: 'gpt-4o-mini',
      served_model: expect.stringContaining('gpt-4o-mini'),
      routing: expect.any(String),
      cost_nano_usd: expect.any(Number),
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      latency_ms: expect.any(Number),
    });
    expect(typeof lines[0]!.request_id).toBe('string');
  });

  it('no token: 401 invalid_api_key, nothing of the scrape leaks', async () => {
    const res = await fetch(`${t.url}/metrics`);
    const text = await res.clone().text();
    expect(text).not.toContain('svc_');
    expect(await expectJsonError(res, 401, 'invalid_api_key')).toContain('SVC_METRICS_TOKEN');
  });

  it('wrong token, a key of the gateway, or a token without the Bearer scheme: 401', async () => {
    for (const authorization of [`Bearer ${METRICS_TOKEN}x`, `Bearer ${t.key}`, METRICS_TOKEN, `Bearer ${METRICS_TOKEN.slice(0, -1)}`]) {
      const res = await fetch(`${t.url}/metrics`, { headers: { authorization } });
      await expectJsonError(res, 401, 'invalid_api_key');
    }
  });

  it('the right token: 200 Prometheus text with request, cost and endpoint series', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^svc_requests_total\{route="\/v1\/chat\/completions",status="200",code=""\} 1$/m);
    expect(text).toMatch(/^svc_request_latency_ms_count\{route="\/v1\/chat\/completions"\} 1$/m);
    expect(text).toMatch(/^svc_cost_nano_usd_total\{model="gpt-4o-mini[^"]*"\} \d+$/m);
    expect(text).toMatch(/^svc_settlement_pending \d+$/m);
    expect(text).toContain('svc_endpoint_breaker_open{');
  });
});

describe('GET /metrics without SVC_METRICS_TOKEN configured', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } }, env: { SVC_METRICS_TOKEN: undefined } });
  });
  afterAll(async () => t.close());

  it('is off: 404 not_found whatever the authorization, with a message naming the variable', async () => {
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const res = await fetch(`${t.url}/metrics`, { headers });
      expect(await expectJsonError(res, 404, 'not_found')).toContain('SVC_METRICS_TOKEN');
    }
  });
});
