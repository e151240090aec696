/**
 * The Bedrock adapter against the simulator, which verifies every signature with @smithy/signature-v4:
 * buildRequest (SigV4) -> HTTP (undici) -> parseResponse / ConverseStream decoder. The canonical output
 * must equal what the simulator planned.
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import { bedrockAdapter } from '../../../../src/providers/bedrock/adapter.js';
import { parseConverseRequest, planConverse } from '../../../../src/sim/bedrock/index.js';
import { startSimulator, type Simulator } from '../../../../src/sim/server.js';
import { canonical } from '../anthropic/canonical.js';

let sim: Simulator;
const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const CREDS = { accessKeyId: 'AKIAADAPTERTEST01', secretAccessKey: 'adapter/secret+0123456789abcdefghijklmnopq', sessionToken: 'adapter-session' };
const env = { SIMBR_ACCESS_KEY_ID: CREDS.accessKeyId, SIMBR_SECRET_ACCESS_KEY: CREDS.secretAccessKey, SIMBR_SESSION_TOKEN: CREDS.sessionToken, SIMBR_REGION: 'eu-west-1' };
const ep = (): EndpointConfig => ({ provider: 'bedrock', upstreamModel: MODEL, baseUrl: `${sim.url}/br`, apiKeyEnv: 'SIMBR_ACCESS_KEY_ID' });
const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } };

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  sim.configure('/br', { sigv4: CREDS });
});

async function send(req: CanonicalRequest, headers: Record<string, string> = {}, opts: { env?: NodeJS.ProcessEnv; now?: Date } = {}) {
  const built = bedrockAdapter.buildRequest(req, ep(), { env: opts.env ?? env, maxTokens: 4096, now: opts.now ?? new Date() });
  // x-sim-* controls are added unsigned, as any proxy-added header would be.
  const res = await request(built.url, { method: 'POST', headers: { ...built.headers, ...headers }, body: built.body });
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk as Buffer);
  return { status: res.statusCode, chunks, body: Buffer.concat(chunks), headers: res.headers };
}

function planned(cache = { read: 0, write: 0 }) {
  const parsed = parseConverseRequest(MODEL, sim.stats().endpoints['/br']?.lastBody);
  if (!parsed.ok) throw new Error('the simulator refused the adapter body');
  return planConverse(parsed.request, { cachedTokens: 0, reasoningTokens: 0, outputTokens: null, cache });
}

function decode(chunks: Buffer[]): CanonicalStreamEvent[] {
  const decoder = bedrockAdapter.streamDecoder();
  return [...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()];
}

describe('bedrock adapter x simulator (signatures verified)', () => {
  it('text, non-stream and stream: same text and usage as planned, cache tokens apart', async () => {
    const cache = { 'x-sim-cache-read-tokens': '5', 'x-sim-cache-write-tokens': '3' };
    const whole = await send(canonical({ system: [{ role: 'system', text: 'Be terse.', cacheControl: { type: 'ephemeral' } }] }), cache);
    expect(whole.status).toBe(200);
    expect(sim.stats().endpoints['/br']?.lastPath).toBe(`/br/model/${encodeURIComponent(MODEL)}/converse`);
    const plan = planned({ read: 5, write: 3 });
    const res = bedrockAdapter.parseResponse(whole.body);
    expect(res.content).toEqual([{ type: 'text', text: plan.words.join(' ') }]);
    const usage = { inputTokens: plan.usage.inputTokens, outputTokens: plan.usage.outputTokens, cacheReadTokens: 5, cacheWriteTokens: 3, reasoningTokens: 0 };
    expect(res.usage).toEqual(usage);
    const streamed = await send(canonical({ system: [{ role: 'system', text: 'Be terse.', cacheControl: { type: 'ephemeral' } }], stream: true }), cache);
    expect(streamed.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const events = decode(streamed.chunks);
    expect(events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe(plan.words.join(' '));
    expect(events.slice(-2)).toEqual([{ type: 'usage', usage }, { type: 'finish', stopReason: 'stop', stopSequence: null }]);
  });

  it('tool call round trip, stream and not', async () => {
    const ask = canonical({ tools: [WEATHER], messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }] });
    const first = bedrockAdapter.parseResponse((await send(ask)).body);
    expect(first.stopReason).toBe('tool_calls');
    const call = first.content[0];
    expect(call).toEqual({ type: 'tool_call', id: expect.stringMatching(/^tooluse_/), name: 'get_weather', arguments: '{"location":"Paris"}' });
    const events = decode((await send({ ...ask, stream: true })).chunks);
    expect(events.map((e) => (e.type === 'tool_args_delta' ? e.json : '')).join('')).toBe('{"location":"Paris"}');
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'tool_calls', stopSequence: null });
    const id = call?.type === 'tool_call' ? call.id : '';
    const second = bedrockAdapter.parseResponse(
      (await send(canonical({ tools: [WEATHER], messages: [...ask.messages, { role: 'assistant', content: first.content }, { role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text: 'rainy' }] }] }] }))).body,
    );
    expect(second.content).toEqual([{ type: 'text', text: 'Echo: the tool returned rainy.' }]);
  });

  it('Claude thinking and the matched stop sequence come back', async () => {
    const res = bedrockAdapter.parseResponse((await send(canonical({ reasoning: { budgetTokens: 2000 } }))).body);
    const plan = planned();
    expect(res.content[0]).toEqual({ type: 'thinking', text: plan.reasoning?.words.join(' '), signature: plan.reasoning?.signature });
    const events = decode((await send(canonical({ reasoning: { budgetTokens: 2000 }, stream: true }))).chunks);
    expect(events.filter((e) => e.type === 'signature_delta')).toEqual([{ type: 'signature_delta', index: 0, signature: plan.reasoning?.signature }]);
    const word = ` ${plan.words[2] ?? ''}`;
    const stopped = bedrockAdapter.parseResponse((await send(canonical({ stop: [word] }))).body);
    expect([stopped.stopReason, stopped.stopSequence]).toEqual(['stop_sequence', word]);
    const streamStop = decode((await send(canonical({ stop: [word], stream: true }))).chunks);
    expect(streamStop.at(-1)).toEqual({ type: 'finish', stopReason: 'stop_sequence', stopSequence: word });
  });

  it.each([
    ['429', 429, true],
    ['503', 503, true],
    ['500', 503, false],
    ['400', 400, false],
    ['401', 503, false],
  ] as const)('fault %s -> GatewayError %i, failover %s', async (fault, status, failover) => {
    const res = await send(canonical(), { 'x-sim-fault': fault });
    expect(bedrockAdapter.mapError(res.status, res.body.toString('utf8')).status).toBe(status);
    expect(bedrockAdapter.mayFailOver(res.status)).toBe(failover);
  });

  it('a wrong secret or a stale clock is refused by the verifier and maps to a 502 without detail', async () => {
    const wrong = await send(canonical(), {}, { env: { ...env, SIMBR_SECRET_ACCESS_KEY: 'not-the-secret' } });
    expect(wrong.status).toBe(403);
    expect(wrong.headers['x-amzn-errortype']).toMatch(/^InvalidSignatureException:/);
    const stale = await send(canonical(), {}, { now: new Date(Date.now() - 60 * 60 * 1000) });
    expect(stale.status).toBe(403);
    expect(stale.body.toString('utf8')).toMatch(/Signature expired/);
    const mapped = bedrockAdapter.mapError(stale.status, stale.body.toString('utf8'));
    expect([mapped.status, mapped.message]).toEqual([503, 'The provider refused the gateway credentials.']);
  });
});
