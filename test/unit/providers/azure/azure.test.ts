/** Azure OpenAI: the envelope (URL, api-version, api-key), OpenAI's codec reused, Azure's bodies and errors. */
import { describe, expect, it } from 'vitest';
import { azureAdapter } from '../../../../src/providers/azure/adapter.js';
import { AZURE_DEFAULT_API_VERSION, azureChatUrl } from '../../../../src/providers/azure/url.js';
import { openaiAdapter } from '../../../../src/providers/openai/adapter.js';
import { canonical, decodeEverySplit, fixture, fixtureText } from '../openai/helpers.js';

const ep = (baseUrl: string, upstreamModel = 'prod-gpt4o') => ({ provider: 'azure', upstreamModel, baseUrl, apiKeyEnv: 'AZURE_KEY' });

describe('azureChatUrl', () => {
  it.each([
    ['https://res.openai.azure.com', `https://res.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`],
    ['https://res.openai.azure.com/', `https://res.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`],
    ['https://res.openai.azure.com/openai?api-version=2025-01-01-preview', 'https://res.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=2025-01-01-preview'],
    ['https://apim.example.com/team-a/?api-version=2024-06-01', 'https://apim.example.com/team-a/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-06-01'],
    ['https://res.openai.azure.com/openai/v1', 'https://res.openai.azure.com/openai/v1/chat/completions'],
  ])('%s', (baseUrl, url) => {
    expect(azureChatUrl(ep(baseUrl))).toBe(url);
  });

  it('a deployment name is path-encoded', () => {
    expect(azureChatUrl(ep('https://r.openai.azure.com', 'my dep/1'))).toContain('/deployments/my%20dep%2F1/chat/completions');
  });
});

describe('azureAdapter', () => {
  const env = { AZURE_KEY: 'azure-secret' };
  it('passthrough target: Azure URL with api-key, no Bearer', () => {
    expect(azureAdapter.capabilities.chatPassthrough).toBe(true);
    expect(azureAdapter.chatRequest(ep('https://r.openai.azure.com'), env)).toEqual({
      url: `https://r.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`,
      headers: { 'content-type': 'application/json', 'api-key': 'azure-secret' },
    });
  });

  it("buildRequest sends OpenAI's body unchanged (same vendor codec)", () => {
    const req = canonical({ stream: true, tools: [{ name: 'f', parameters: { type: 'object' } }], toolChoice: { type: 'required' } });
    const ctx = { env, maxTokens: 99, now: new Date() };
    const azure = azureAdapter.buildRequest(req, ep('https://r.openai.azure.com'), ctx);
    const openai = openaiAdapter.buildRequest(req, { ...ep('https://api.openai.com/v1'), provider: 'openai' }, ctx);
    expect(azure.body).toBe(openai.body);
    expect(azure.headers).toEqual({ 'content-type': 'application/json', 'api-key': 'azure-secret', accept: 'text/event-stream' });
  });

  it('chat-text-filtered.json: filter annotations are ignored; cached tokens moved out of input', () => {
    expect(azureAdapter.parseResponse(fixture('azure', 'chat-text-filtered.json'))).toEqual({
      id: 'chatcmpl-AzUre1',
      upstreamModel: 'gpt-4o-2024-11-20',
      created: 1741571000,
      content: [{ type: 'text', text: 'Hello! How can I help?' }],
      stopReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 220, outputTokens: 7, cacheReadTokens: 1280, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('stream-content-filter.sse: the empty prompt-filter chunk starts nothing; a filtered finish is content_filter', () => {
    expect(decodeEverySplit(() => azureAdapter.streamDecoder(), fixture('azure', 'stream-content-filter.sse'))).toEqual([
      { type: 'start', id: 'chatcmpl-AzStr', upstreamModel: 'gpt-4o-2024-11-20' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Once upon' },
      { type: 'block_stop', index: 0 },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', stopReason: 'content_filter', stopSequence: null },
    ]);
  });
});

describe('mapAzureError', () => {
  const KEY = '0123456789abcdef0123456789abcdef';
  it.each([
    ['error-400-content-filter.json', 400, 400, 'invalid_request', 'content management policy'],
    ['error-401-access-denied.json', 401, 503, 'service_unavailable', null],
    ['error-404-deployment-not-found.json', 404, 400, 'invalid_request', 'deployment for this resource does not exist'],
    ['error-429-rate-limit.json', 429, 429, 'rate_limit_exceeded', 'The provider is rate limiting'],
    ['error-500-server-error.json', 500, 503, 'service_unavailable', 'The provider is unavailable'],
    ['error-503-unavailable.json', 503, 503, 'service_unavailable', 'The provider is unavailable'],
  ] as const)('%s -> %i', (name, upstream, status, code, detail) => {
    const err = azureAdapter.mapError(upstream, fixtureText('azure', name));
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(JSON.stringify(err.toBody())).not.toContain(KEY);
    if (detail) expect(err.message).toContain(detail);
    else expect(err.message).toBe('The provider refused the gateway credentials.');
  });

  it('the wait Azure names only in its 429 text becomes retry-after', () => {
    expect(azureAdapter.mapError(429, fixtureText('azure', 'error-429-rate-limit.json')).headers['retry-after']).toBe('6');
  });

  it('failover on 429, 503, 529 only', () => {
    expect([400, 401, 404, 429, 500, 503, 529].filter((s) => azureAdapter.mayFailOver(s))).toEqual([429, 503, 529]);
  });
});
