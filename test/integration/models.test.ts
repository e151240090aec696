import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_TOKEN, startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('GET /v1/models and /v1/models/{id}', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  it('lists the catalog through the official client, cost 0 exact', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids).toContain('anthropic/claude-sonnet-4');
    const res = await get('/v1/models', t.key);
    expect(res.headers.get('x-svc-request-cost')).toBe('0');
    expect(res.headers.get('x-svc-cost-status')).toBe('exact');
  });

  it('filters the listing to the models the key may route to', async () => {
    const k = await t.addKey({ allowedModels: ['gpt-4o'] });
    const body = (await (await get('/v1/models', k.value)).json()) as { data: { id: string; owned_by: string }[] };
    expect(body.data.filter((m) => m.owned_by !== 'svc').map((m) => m.id)).toEqual(['gpt-4o']);
    // Aliases appear only when the key can route to one of their models.
    expect(body.data.filter((m) => m.owned_by === 'svc').map((m) => m.id).sort()).toEqual(['fastest-gpt', 'svc/auto']);
  });

  it('details an id containing a slash with pricing, ETag and max-age 60; 304 on If-None-Match', async () => {
    const res = await get('/v1/models/anthropic/claude-sonnet-4', t.key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; object: string; owned_by: string; context_length: number; pricing: { prompt: string; completion: string } };
    expect(body).toMatchObject({ id: 'anthropic/claude-sonnet-4', object: 'model', owned_by: 'anthropic', context_length: 200_000 });
    expect(body.pricing.prompt).toBe('0.000003');
    expect(body.pricing.completion).toBe('0.000015');
    expect(res.headers.get('cache-control')).toContain('max-age=60');
    expect(res.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/v1/models/anthropic/claude-sonnet-4', t.key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('404 model_not_found for unknown and for out-of-scope ids alike', async () => {
    const k = await t.addKey({ allowedModels: ['gpt-4o'] });
    for (const [path, key] of [
      ['/v1/models/nope/nothing', t.key],
      ['/v1/models/gpt-4o-mini', k.value],
    ] as const) {
      const res = await get(path, key);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    }
  });

  it('403 key_route_not_allowed on the listing for a key closed to it', async () => {
    const k = await t.addKey({ allowedRoutes: ['/v1/chat/completions'] });
    const res = await get('/v1/models', k.value);
    expect(res.status).toBe(403);
    expect(res.headers.get('x-svc-auth-reason')).toBe('key_route_not_allowed');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('key_route_not_allowed');
  });

  it('401 without a key', async () => {
    const res = await fetch(`${t.url}/v1/models`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-svc-auth-reason')).toBe('unauthorized');
  });

  it('exposes Prometheus metrics', async () => {
    const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(text).toContain('# TYPE svc_requests_total counter');
    expect(text).toContain('svc_request_latency_ms_bucket');
    // After a served request the endpoint's latency estimates and breaker state are exported.
    await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
    });
    const after = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(after).toMatch(/svc_endpoint_latency_ms\{provider="openai",host="127\.0\.0\.1:\d+",model="gpt-4o-mini-2024-07-18",kind="first_byte"\} \d/);
    expect(after).toMatch(/svc_endpoint_latency_ms\{[^}]*kind="per_output_token"\} \d/);
    expect(after).toMatch(/svc_endpoint_breaker_open\{[^}]*model="gpt-4o-mini-2024-07-18"\} 0/);
  });
});

describe('model detail caching details', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
  });
  afterAll(async () => t.close());
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.key}`, ...headers } });

  it('aliases carry an ETag and x-svc-model too', async () => {
    const res = await get('/v1/models/svc/auto');
    expect(res.headers.get('etag')).toMatch(/^".+"$/);
    expect(res.headers.get('x-svc-model')).toBe('svc/auto');
    expect((await get('/v1/models/svc/auto', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('If-None-Match compares weakly, takes lists and *', async () => {
    const etag = (await get('/v1/models/gpt-4o-mini')).headers.get('etag')!;
    for (const v of [`W/${etag}`, `"other", ${etag}`, '*']) expect((await get('/v1/models/gpt-4o-mini', { 'if-none-match': v })).status).toBe(304);
    expect((await get('/v1/models/gpt-4o-mini', { 'if-none-match': '"other"' })).status).toBe(200);
  });
});
