/**
 * The shared adapter-against-simulator suite: every provider adapter runs it in a few lines. It builds a
 * canonical request, sends it to the simulator's dialect of that provider, and checks that text, tool
 * calls, usage and stop reasons come back equal to what the simulator answered, stream and not, and that
 * the simulator's error bodies map to the contract without leaking the credential.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalMessage, CanonicalRequest } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import type { ProviderAdapter } from '../../../../src/providers/adapter.js';
import { startSimulator, type FaultKind, type Simulator } from '../../../../src/sim/server.js';
import { words } from '../../../../src/sim/text.js';
import { canonical } from './helpers.js';
import { callAdapter, expectError, expectEvents, expectResponse, summarizeResponse, summarizeStream } from './sim-harness.js';

export interface AdapterSimSpec {
  adapter: ProviderAdapter;
  /** The endpoint pointing at the simulator under `prefix`, its credential in env var KEY. */
  endpoint(simUrl: string, prefix: string): EndpointConfig;
  /** The raw usage object of a non-stream body, for `adapter.usage`. */
  rawUsage(raw: unknown): Record<string, unknown>;
  /** Whether the provider reports cached prompt tokens (Mistral does not). */
  reportsCache: boolean;
  model: string;
}

const SECRET = 'sim-secret-0123456789abcdefABCDEF0123456789';
const WEATHER = { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { location: { type: 'string' } } } };
const ASK: CanonicalMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Say something about the sea.' }] }];
const WEATHER_ASK: CanonicalMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }];

export function adapterSimSuite(spec: AdapterSimSpec): void {
  let sim: Simulator;
  const prefix = `/${spec.adapter.name}-ep`;
  const env = { KEY: SECRET };
  const ep = (): EndpointConfig => spec.endpoint(sim.url, prefix);
  const req = (o: Partial<CanonicalRequest> = {}): CanonicalRequest =>
    canonical({ model: spec.model, system: [{ role: 'system', text: 'Be terse.' }], messages: ASK, ...o });
  const call = (r: CanonicalRequest, headers: Record<string, string> = {}, e: NodeJS.ProcessEnv = env) =>
    callAdapter(spec.adapter, r, ep(), e, headers);

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.reset();
    sim.configure(prefix, { apiKey: SECRET });
  });

  describe(`${spec.adapter.name} adapter against the simulator`, () => {
    it('text: the canonical answer is the simulator\'s text and usage, stream and not', async () => {
      const { response, raw } = expectResponse(await call(req()));
      const whole = summarizeResponse(response);
      expect(whole.text).toMatch(/^Echo: /);
      expect(whole.stopReason).toBe('stop');
      expect(response.usage).toEqual(spec.adapter.usage(spec.rawUsage(raw)));
      expect(response.usage.outputTokens).toBe(words(whole.text).length);
      expect(response.usage.inputTokens).toBeGreaterThan(0);
      const streamed = summarizeStream(expectEvents(await call(req({ stream: true }))));
      expect(streamed).toEqual(whole);
    });

    it('usage classes: cached and reasoning tokens from the simulator controls', async () => {
      const headers = { 'x-sim-cached-tokens': '5', 'x-sim-reasoning-tokens': '3' };
      const { response, raw } = expectResponse(await call(req(), headers));
      expect(response.usage).toEqual(spec.adapter.usage(spec.rawUsage(raw)));
      expect(response.usage.cacheReadTokens).toBe(spec.reportsCache ? 5 : 0);
      const streamed = summarizeStream(expectEvents(await call(req({ stream: true }), headers)));
      expect(streamed.usage).toEqual(response.usage);
    });

    it('an output cap ends with stop reason length and that many output tokens', async () => {
      const { response } = expectResponse(await call(req({ maxTokens: 3 })));
      expect(response.stopReason).toBe('length');
      expect(response.usage.outputTokens).toBe(3);
      expect(summarizeStream(expectEvents(await call(req({ maxTokens: 3, stream: true })))).stopReason).toBe('length');
    });

    it('tool call, stream and not, then the tool result round trip', async () => {
      const r = req({ messages: WEATHER_ASK, tools: [WEATHER], toolChoice: { type: 'auto' } });
      const whole = summarizeResponse(expectResponse(await call(r)).response);
      expect(whole.stopReason).toBe('tool_calls');
      expect(whole.toolCalls.map(({ name, arguments: a }) => ({ name, args: JSON.parse(a) as unknown }))).toEqual([
        { name: 'get_weather', args: { location: 'Paris' } },
      ]);
      const streamed = summarizeStream(expectEvents(await call({ ...r, stream: true })));
      expect(streamed.stopReason).toBe('tool_calls');
      expect(streamed.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([['get_weather', { location: 'Paris' }]]);
      expect(streamed.usage).toEqual(whole.usage);

      const id = whole.toolCalls[0]?.id ?? '';
      const followUp = req({
        messages: [
          ...WEATHER_ASK,
          { role: 'assistant', content: [{ type: 'tool_call', id, name: 'get_weather', arguments: '{"location":"Paris"}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text: 'sunny and 21 C' }] }] },
        ],
        tools: [WEATHER],
      });
      const answer = summarizeResponse(expectResponse(await call(followUp)).response);
      expect(answer.toolCalls).toEqual([]);
      expect(answer.text).toContain('sunny and 21 C');
    });

    it('a forced tool choice calls the tool without being asked', async () => {
      const r = req({ tools: [WEATHER], toolChoice: { type: 'tool', name: 'get_weather' } });
      expect(summarizeResponse(expectResponse(await call(r)).response).toolCalls[0]?.name).toBe('get_weather');
      const required = req({ tools: [WEATHER], toolChoice: { type: 'required' } });
      expect(summarizeResponse(expectResponse(await call(required)).response).stopReason).toBe('tool_calls');
    });

    for (const [fault, status, code, failover] of [
      ['429', 429, 'rate_limit_exceeded', true],
      ['503', 503, 'service_unavailable', true],
      ['529', 503, 'service_unavailable', true],
      ['500', 503, 'service_unavailable', false],
      ['400', 400, 'invalid_request', false],
    ] as [FaultKind, number, string, boolean][]) {
      it(`upstream fault ${fault} -> ${status} ${code}, failover ${failover}`, async () => {
        sim.configure(prefix, { fault, faultCount: 1 });
        const { error, status: upstream } = expectError(await call(req()));
        expect(upstream).toBe(Number(fault));
        expect(error.status).toBe(status);
        expect(error.code).toBe(code);
        expect(spec.adapter.mayFailOver(upstream)).toBe(failover);
      });
    }

    it('a refused credential is a 502 that never shows the key', async () => {
      const wrong = 'wrong-key-ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
      const { error, status } = expectError(await call(req(), {}, { KEY: wrong }));
      expect([400, 401, 403]).toContain(status);
      expect(error.status).toBe(503);
      expect(JSON.stringify(error.toBody())).not.toContain(wrong);
      expect(JSON.stringify(error.toBody())).not.toContain(SECRET);
    });

    it('a stream cut mid-way is an error, never a silent finish', async () => {
      sim.configure(prefix, { fault: 'midstream-reset', faultCount: 1 });
      await expect(call(req({ stream: true }))).rejects.toThrow();
    });
  });
}
