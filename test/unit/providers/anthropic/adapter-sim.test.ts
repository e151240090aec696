/**
 * The Anthropic adapter against the simulator: buildRequest -> HTTP (undici) -> parseResponse / stream
 * decoder. The canonical output must equal what the simulator planned (its text and its usage).
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import { anthropicAdapter } from '../../../../src/providers/anthropic/adapter.js';
import { parseMessagesRequest, planMessage } from '../../../../src/sim/anthropic/index.js';
import { startSimulator, type Simulator } from '../../../../src/sim/server.js';
import { canonical } from './canonical.js';

let sim: Simulator;
const KEY = 'sk-ant-sim-key-0001';
const env = { SIM_ANTHROPIC_KEY: KEY };
const ep = (): EndpointConfig => ({ provider: 'anthropic', upstreamModel: 'claude-sonnet-4-20250514', baseUrl: `${sim.url}/anth/v1`, apiKeyEnv: 'SIM_ANTHROPIC_KEY' });
const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } };

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  sim.configure('/anth', { apiKey: KEY });
});

async function send(req: CanonicalRequest, headers: Record<string, string> = {}, e: NodeJS.ProcessEnv = env) {
  const built = anthropicAdapter.buildRequest(req, ep(), { env: e, maxTokens: 4096, now: new Date() });
  const res = await request(built.url, { method: 'POST', headers: { ...built.headers, ...headers }, body: built.body });
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk as Buffer);
  return { status: res.statusCode, chunks, body: Buffer.concat(chunks) };
}

/** What the simulator planned for the body it last received. */
function planned(cache = { read: 0, write: 0 }) {
  const parsed = parseMessagesRequest(sim.stats().endpoints['/anth']?.lastBody);
  if (!parsed.ok) throw new Error('the simulator refused the adapter body');
  return planMessage(parsed.request, { cachedTokens: 0, reasoningTokens: 0, outputTokens: null, cache });
}

function decode(chunks: Buffer[]): CanonicalStreamEvent[] {
  const decoder = anthropicAdapter.streamDecoder();
  return [...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()];
}

const textOf = (events: CanonicalStreamEvent[]) => events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');

describe('anthropic adapter x simulator', () => {
  it('text, non-stream and stream: same text, usage equal to the simulator plan, with cache tokens', async () => {
    const cacheHeaders = { 'x-sim-cache-read-tokens': '6', 'x-sim-cache-write-tokens': '2' };
    const whole = await send(canonical({ system: [{ role: 'system', text: 'Be terse.' }] }), cacheHeaders);
    expect(whole.status).toBe(200);
    const plan = planned({ read: 6, write: 2 });
    const res = anthropicAdapter.parseResponse(whole.body);
    expect(res.content).toEqual([{ type: 'text', text: plan.words.join(' ') }]);
    expect(res.stopReason).toBe('stop');
    const usage = { inputTokens: plan.usage.input_tokens, outputTokens: plan.usage.output_tokens, cacheReadTokens: 6, cacheWriteTokens: 2, reasoningTokens: 0 };
    expect(res.usage).toEqual(usage);
    const streamed = await send(canonical({ system: [{ role: 'system', text: 'Be terse.' }], stream: true }), cacheHeaders);
    const events = decode(streamed.chunks);
    expect(textOf(events)).toBe(plan.words.join(' '));
    expect(events.filter((e) => e.type === 'usage').at(-1)).toEqual({ type: 'usage', usage });
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'stop', stopSequence: null });
    expect(events[0]).toEqual({ type: 'start', id: res.id, upstreamModel: 'claude-sonnet-4-20250514' });
  });

  it('tool call round trip through canonical messages, stream and not', async () => {
    const ask = canonical({ tools: [WEATHER], messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }] });
    const first = anthropicAdapter.parseResponse((await send(ask)).body);
    const call = first.content[0];
    expect(first.stopReason).toBe('tool_calls');
    expect(call).toEqual({ type: 'tool_call', id: expect.stringMatching(/^toolu_/), name: 'get_weather', arguments: '{"location":"Paris"}' });
    const events = decode((await send({ ...ask, stream: true })).chunks);
    expect(events.find((e) => e.type === 'block_start')).toEqual({ type: 'block_start', index: 0, block: { type: 'tool_call', id: call?.type === 'tool_call' ? call.id : '', name: 'get_weather' } });
    expect(events.map((e) => (e.type === 'tool_args_delta' ? e.json : '')).join('')).toBe('{"location":"Paris"}');
    const followUp = canonical({
      tools: [WEATHER],
      messages: [
        ...ask.messages,
        { role: 'assistant', content: first.content },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: call?.type === 'tool_call' ? call.id : '', content: [{ type: 'text', text: 'sunny, 21 C' }] }] },
      ],
    });
    const second = anthropicAdapter.parseResponse((await send(followUp)).body);
    expect(second.content).toEqual([{ type: 'text', text: 'Echo: the tool returned sunny, 21 C.' }]);
  });

  it('thinking from reasoning effort: signed thinking part, replayable in the next turn; stream carries the signature', async () => {
    const ask = canonical({ reasoning: { effort: 'low' } });
    const res = anthropicAdapter.parseResponse((await send(ask)).body);
    const plan = planned();
    expect(res.content[0]).toEqual({ type: 'thinking', text: plan.thinking?.words.join(' '), signature: plan.thinking?.signature });
    expect(res.usage.reasoningTokens).toBe(plan.thinking?.words.length);
    const events = decode((await send({ ...ask, stream: true })).chunks);
    expect(events.find((e) => e.type === 'signature_delta')).toEqual({ type: 'signature_delta', index: 0, signature: plan.thinking?.signature });
    const next = canonical({ reasoning: { effort: 'low' }, messages: [...ask.messages, { role: 'assistant', content: res.content }, { role: 'user', content: [{ type: 'text', text: 'More?' }] }] });
    expect((await send(next)).status).toBe(200);
  });

  it('stop sequence and max tokens map to stop_sequence / length', async () => {
    const full = anthropicAdapter.parseResponse((await send(canonical())).body).content[0];
    const word = full?.type === 'text' ? full.text.split(' ')[3] : '';
    const stopped = anthropicAdapter.parseResponse((await send(canonical({ stop: [` ${word}`] }))).body);
    expect([stopped.stopReason, stopped.stopSequence]).toEqual(['stop_sequence', ` ${word}`]);
    const built = anthropicAdapter.buildRequest(canonical(), ep(), { env, maxTokens: 2, now: new Date() });
    const res = await request(built.url, { method: 'POST', headers: built.headers, body: built.body });
    const cut = anthropicAdapter.parseResponse(Buffer.from(await res.body.arrayBuffer()));
    expect([cut.stopReason, cut.usage.outputTokens]).toEqual(['length', 2]);
  });

  it.each([
    ['429', 429, true],
    ['500', 503, false],
    ['503', 503, true],
    ['529', 503, true],
    ['400', 400, false],
    ['401', 503, false],
  ] as const)('fault %s -> GatewayError %i, failover %s', async (fault, status, failover) => {
    const res = await send(canonical(), { 'x-sim-fault': fault });
    const error = anthropicAdapter.mapError(res.status, res.body.toString('utf8'));
    expect(error.status).toBe(status);
    expect(anthropicAdapter.mayFailOver(res.status)).toBe(failover);
  });

  it('a wrong key is the gateway credential refused (502, no detail); a cut stream fails the decoder', async () => {
    const res = await send(canonical(), {}, { SIM_ANTHROPIC_KEY: 'sk-ant-wrong-key-9999' });
    expect(res.status).toBe(401);
    const error = anthropicAdapter.mapError(res.status, res.body.toString('utf8'));
    expect([error.status, error.message]).toEqual([503, 'The provider refused the gateway credentials.']);
    // Either the socket error surfaces while reading, or the bytes that arrived end before message_stop.
    const failure = await send(canonical({ stream: true }), { 'x-sim-fault': 'midstream-reset' }).then(
      (cut) => {
        try {
          decode(cut.chunks);
        } catch (e) {
          return e;
        }
        return null;
      },
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Error);
  });
});
