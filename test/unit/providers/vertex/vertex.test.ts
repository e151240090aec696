/** Vertex AI: Gemini's codec under the Vertex envelope (publisher URL, Bearer token) and Vertex bodies. */
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../../src/providers/gemini/adapter.js';
import { vertexAdapter } from '../../../../src/providers/vertex/adapter.js';
import { vertexModelUrl } from '../../../../src/providers/vertex/url.js';
import { canonical, decodeEverySplit, fixture, fixtureText } from '../openai/helpers.js';

const ep = (baseUrl: string, upstreamModel = 'gemini-2.0-flash-001') => ({ provider: 'vertex', upstreamModel, baseUrl, apiKeyEnv: 'VERTEX_TOKEN' });
const BASE = 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-central1';

describe('vertexModelUrl', () => {
  it.each([
    [BASE, 'gemini-2.0-flash-001', `${BASE}/publishers/google/models/gemini-2.0-flash-001`],
    [`${BASE}/`, 'publishers/google/models/gemini-2.5-pro', `${BASE}/publishers/google/models/gemini-2.5-pro`],
    ['https://aiplatform.googleapis.com/v1', 'gemini-2.5-flash', 'https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash'],
  ])('%s + %s', (baseUrl, model, url) => {
    expect(vertexModelUrl(ep(baseUrl, model))).toBe(url);
  });
});

describe('vertexAdapter', () => {
  const ctx = { env: { VERTEX_TOKEN: 'ya29.token' }, maxTokens: 64, now: new Date() };
  it("Gemini's body under the Vertex URL with a Bearer token", () => {
    const req = canonical({ stream: true, tools: [{ name: 'f', parameters: { type: 'object' } }] });
    const up = vertexAdapter.buildRequest(req, ep(BASE), ctx);
    expect(up.url).toBe(`${BASE}/publishers/google/models/gemini-2.0-flash-001:streamGenerateContent?alt=sse`);
    expect(up.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ya29.token', accept: 'text/event-stream' });
    const gemini = geminiAdapter.buildRequest(req, { ...ep('https://x/v1beta'), apiKeyEnv: null }, ctx);
    expect(up.body).toBe(gemini.body);
  });

  it('generate-text.json: createTime is the created time; cached tokens out of input', () => {
    expect(vertexAdapter.parseResponse(fixture('vertex', 'generate-text.json'))).toEqual({
      id: 'kjnOZ4anB6qmnvgP0bGd-Q0',
      upstreamModel: 'gemini-2.0-flash-001',
      created: Math.floor(Date.parse('2025-03-10T09:15:22.123456Z') / 1000),
      content: [{ type: 'text', text: 'Bonjour !' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 52, outputTokens: 3, cacheReadTokens: 2048, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('stream-text.sse: a first chunk with usage but no counts, then the finish chunk', () => {
    expect(decodeEverySplit(() => vertexAdapter.streamDecoder(), fixture('vertex', 'stream-text.sse'))).toEqual([
      { type: 'start', id: 'vXs7r3am', upstreamModel: 'gemini-2.0-flash-001' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Bon' },
      { type: 'text_delta', index: 0, text: 'jour' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'stop', stopSequence: null },
    ]);
  });

  it.each([
    ['error-401-unauthenticated.json', 401, 503, null],
    ['error-403-permission-denied.json', 403, 503, null],
    ['error-404-model.json', 404, 400, 'was not found'],
    ['error-429-resource-exhausted.json', 429, 429, 'The provider is rate limiting'],
  ] as const)('%s -> %i, no token in the message', (name, upstream, status, detail) => {
    const err = vertexAdapter.mapError(upstream, fixtureText('vertex', name));
    expect(err.status).toBe(status);
    expect(JSON.stringify(err.toBody())).not.toContain('ya29');
    if (detail) expect(err.message).toContain(detail);
  });

  it('no token in the environment: no Authorization header (the upstream 401 maps to 502)', () => {
    expect(vertexAdapter.buildRequest(canonical(), ep(BASE), { ...ctx, env: {} }).headers.authorization).toBeUndefined();
  });
});
