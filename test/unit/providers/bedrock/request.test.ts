/** Canonical request -> Converse body and the signed HTTP request: whole expected bodies per scenario. */
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import { GatewayError } from '../../../../src/errors/gateway-error.js';
import { EFFORT_BUDGET } from '../../../../src/providers/anthropic/thinking.js';
import { bedrockAdapter } from '../../../../src/providers/bedrock/adapter.js';
import { awsRegion, credentialPrefix } from '../../../../src/providers/bedrock/auth.js';
import { isClaudeModel, toConverseRequest } from '../../../../src/providers/bedrock/request.js';
import { canonical } from '../anthropic/canonical.js';

const CLAUDE = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
const WEATHER = { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const HI = [{ role: 'user', content: [{ text: 'Hi' }] }];

const cases: { name: string; req: CanonicalRequest; model?: string; maxTokens?: number; body: Record<string, unknown> }[] = [
  {
    name: 'system with cache points, clamped temperature, topP, stops (Claude: stop sequence asked back), top_k',
    req: canonical({
      system: [
        { role: 'system', text: 'Be terse.', cacheControl: { type: 'ephemeral' } },
        { role: 'developer', text: 'French.', cacheControl: { type: 'ephemeral', ttl: '1h' } },
      ],
      temperature: 2,
      topP: 0.8,
      topK: 20,
      stop: ['END'],
    }),
    body: {
      messages: HI,
      system: [{ text: 'Be terse.' }, { cachePoint: { type: 'default' } }, { text: 'French.' }, { cachePoint: { type: 'default', ttl: '1h' } }],
      inferenceConfig: { maxTokens: 512, temperature: 1, topP: 0.8, stopSequences: ['END'] },
      additionalModelRequestFields: { top_k: 20 },
      additionalModelResponseFieldPaths: ['/stop_sequence'],
    },
  },
  {
    name: 'a non-Claude model gets no Anthropic-only fields',
    model: NOVA,
    req: canonical({ topK: 20, stop: ['END'], reasoning: { effort: 'high' } }),
    maxTokens: 30_000,
    body: { messages: HI, inferenceConfig: { maxTokens: 30_000, stopSequences: ['END'] } },
  },
  {
    name: 'tool round trip: toolUse / toolResult blocks, results first in their user turn, required -> any, cache point after a tool',
    req: canonical({
      tools: [{ ...WEATHER, cacheControl: { type: 'ephemeral' } }],
      toolChoice: { type: 'required' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'user', content: [{ type: 'text', text: 'quickly' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'tooluse_1', content: [{ type: 'text', text: '21 C' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBO' } }] },
            { type: 'tool_result', toolCallId: 'tooluse_2', content: [{ type: 'text', text: 'no such city' }], isError: true },
          ],
        },
      ],
    }),
    body: {
      messages: [
        { role: 'user', content: [{ text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'tooluse_1', content: [{ text: '21 C' }, { image: { format: 'png', source: { bytes: 'iVBO' } } }], status: 'success' } },
            { toolResult: { toolUseId: 'tooluse_2', content: [{ text: 'no such city' }], status: 'error' } },
            { text: 'quickly' },
          ],
        },
      ],
      inferenceConfig: { maxTokens: 512 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'get_weather', description: 'Weather by city', inputSchema: { json: WEATHER.parameters } } }, { cachePoint: { type: 'default' } }],
        toolChoice: { any: {} },
      },
    },
  },
  {
    name: 'tool_choice none without tool history: no toolConfig at all',
    req: canonical({ tools: [WEATHER], toolChoice: { type: 'none' } }),
    body: { messages: HI, inferenceConfig: { maxTokens: 512 } },
  },
  {
    name: 'tool_choice none with tool history: tools declared (Converse requires it), no choice; named tool choice otherwise',
    req: canonical({
      tools: [WEATHER],
      toolChoice: { type: 'none' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'get_weather', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] }] },
      ],
    }),
    body: {
      messages: [
        { role: 'user', content: [{ text: 'Q' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'ok' }], status: 'success' } }] },
      ],
      inferenceConfig: { maxTokens: 512 },
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', description: 'Weather by city', inputSchema: { json: WEATHER.parameters } } }] },
    },
  },
  {
    name: 'images: base64, data: URL, s3:// location; jpg media type -> jpeg',
    req: canonical({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpg', data: '/9j/' }, cacheControl: { type: 'ephemeral' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/webp;base64,UklGR' } },
            { type: 'image', source: { kind: 'url', url: 's3://bucket/cat.GIF' } },
            { type: 'text', text: 'Describe.' },
          ],
        },
      ],
    }),
    body: {
      messages: [
        {
          role: 'user',
          content: [
            { image: { format: 'jpeg', source: { bytes: '/9j/' } } },
            { cachePoint: { type: 'default' } },
            { image: { format: 'webp', source: { bytes: 'UklGR' } } },
            { image: { format: 'gif', source: { s3Location: { uri: 's3://bucket/cat.GIF' } } } },
            { text: 'Describe.' },
          ],
        },
      ],
      inferenceConfig: { maxTokens: 512 },
    },
  },
  {
    name: 'Claude thinking from effort: budget in additionalModelRequestFields, temperature dropped, topP raised; reasoning replayed',
    maxTokens: 4000,
    req: canonical({
      reasoning: { effort: 'low' },
      temperature: 0.5,
      topP: 0.1,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'hmm', signature: 'sig' },
            { type: 'thinking', text: '', redacted: 'b3BhcXVl' },
            { type: 'thinking', text: 'unsigned, from elsewhere' },
            { type: 'text', text: 'A' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
      ],
    }),
    body: {
      messages: [
        { role: 'user', content: [{ text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig' } } },
            { reasoningContent: { redactedContent: 'b3BhcXVl' } },
            { text: 'A' },
          ],
        },
        { role: 'user', content: [{ text: 'Q2' }] },
      ],
      inferenceConfig: { maxTokens: 4000, topP: 0.95 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: EFFORT_BUDGET.low } },
    },
  },
  {
    name: 'JSON object mode becomes a system instruction',
    req: canonical({ responseFormat: { type: 'json_object' } }),
    body: { messages: HI, system: [{ text: 'Respond with a single valid JSON object and nothing else.' }], inferenceConfig: { maxTokens: 512 } },
  },
];

describe('toConverseRequest', () => {
  it.each(cases)('$name', ({ req, model, maxTokens, body }) => {
    expect(toConverseRequest(req, model ?? CLAUDE, maxTokens ?? 512)).toEqual(body);
  });

  it('refuses what Converse cannot carry: http image URLs, unknown image types, n > 1, non-object tool arguments', () => {
    const user = (source: { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string }) =>
      canonical({ messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
    const attempts: CanonicalRequest[] = [
      user({ kind: 'url', url: 'https://example.com/cat.png' }),
      user({ kind: 'base64', mediaType: 'image/tiff', data: 'AA' }),
      canonical({ n: 3 }),
      canonical({ messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '[1,2]' }] }] }),
    ];
    for (const req of attempts) {
      let error: unknown = null;
      try {
        toConverseRequest(req, CLAUDE, 10);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(400);
    }
  });

  it('recognises Claude ids, inference profiles and ARNs', () => {
    expect([CLAUDE, 'us.anthropic.claude-sonnet-4-20250514-v1:0', 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-v2', NOVA, 'meta.llama3-70b-instruct-v1:0'].map(isClaudeModel)).toEqual([
      true, true, true, false, false,
    ]);
  });
});

describe('bedrockAdapter.buildRequest', () => {
  const ep: EndpointConfig = { provider: 'bedrock', upstreamModel: CLAUDE, baseUrl: 'https://bedrock-runtime.eu-west-3.amazonaws.com', apiKeyEnv: 'BR_EU_ACCESS_KEY_ID' };
  const env = { BR_EU_ACCESS_KEY_ID: 'AKIAEXAMPLEEU', BR_EU_SECRET_ACCESS_KEY: 'secret/eu', BR_EU_SESSION_TOKEN: 'tok' };
  const now = new Date('2025-03-04T05:06:07Z');

  it('converse / converse-stream URLs with the model id as one encoded segment; SigV4 for bedrock in the host region', () => {
    const plain = bedrockAdapter.buildRequest(canonical(), ep, { env, maxTokens: 100, now });
    expect(plain.url).toBe('https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse');
    expect(JSON.parse(String(plain.body))).toEqual(toConverseRequest(canonical(), CLAUDE, 100));
    expect(plain.headers).toMatchObject({
      host: 'bedrock-runtime.eu-west-3.amazonaws.com',
      'content-type': 'application/json',
      'x-amz-date': '20250304T050607Z',
      'x-amz-security-token': 'tok',
    });
    expect(plain.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEEU\/20250304\/eu-west-3\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    const streamed = bedrockAdapter.buildRequest(canonical({ stream: true }), ep, { env, maxTokens: 100, now });
    expect(streamed.url).toMatch(/\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/converse-stream$/);
    expect(streamed.headers.accept).toBe('application/vnd.amazon.eventstream');
  });

  it('missing credentials: a GatewayError before any call (the chain moves on)', () => {
    expect(() => bedrockAdapter.buildRequest(canonical(), ep, { env: { BR_EU_ACCESS_KEY_ID: 'AKIA' }, maxTokens: 1, now })).toThrow(GatewayError);
  });

  it('credential env naming and region resolution', () => {
    expect([credentialPrefix(null), credentialPrefix('AWS_ACCESS_KEY_ID'), credentialPrefix('BEDROCK_EU_ACCESS_KEY_ID'), credentialPrefix('BEDROCK_EU')]).toEqual([
      'AWS_', 'AWS_', 'BEDROCK_EU_', 'BEDROCK_EU_',
    ]);
    const at = (baseUrl: string, e: NodeJS.ProcessEnv = {}) => awsRegion({ ...ep, baseUrl }, e);
    expect(at('https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com')).toBe('us-gov-west-1');
    expect(at('https://bedrock-runtime.cn-north-1.amazonaws.com.cn')).toBe('cn-north-1');
    expect(at('http://127.0.0.1:9000/sim', { BR_EU_REGION: 'ap-south-1', AWS_REGION: 'x' })).toBe('ap-south-1');
    expect(at('http://127.0.0.1:9000/sim', { AWS_REGION: 'sa-east-1' })).toBe('sa-east-1');
    expect(at('http://proxy.internal')).toBe('us-east-1');
  });
});
