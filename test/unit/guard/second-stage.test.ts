import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardCategory, GuardSecondStageConfig } from '../../../src/config/schema.js';
import { GUARD_LABELS } from '../../../src/guard/labels.js';
import { parseModeration, SecondStage } from '../../../src/guard/second-stage.js';
import { startSimulator, type Simulator } from '../../../src/sim/server.js';

const all = (v: number) => Object.fromEntries(GUARD_LABELS.map((c) => [c, v])) as Record<GuardCategory, number>;

let sim: Simulator;
let agent: Agent;
const stageFor = (over: Partial<GuardSecondStageConfig> = {}) =>
  new SecondStage(
    {
      endpoint: { provider: 'openai', upstreamModel: 'omni-moderation-latest', baseUrl: `${sim.url}/mod/v1`, apiKeyEnv: 'MOD_KEY' },
      band: { from: 0.5, to: 1.5 },
      timeoutMs: 5000,
      priceUsd: 0,
      ...over,
    },
    { agent, env: { MOD_KEY: 'sk-mod' } },
  );

beforeAll(async () => {
  sim = await startSimulator({});
  agent = new Agent();
});
afterAll(async () => {
  await agent.close();
  await sim.close();
});

describe('guardrail second stage', () => {
  it('takes only moderation categories inside [from x threshold, to x threshold), never prompt injection', () => {
    const s = stageFor();
    const scores = { ...all(0.01), prompt_injection: 0.45, violence: 0.25, hate: 0.74, sexual: 0.75, 'self-harm': 0.24 };
    expect(s.uncertain(scores, all(0.5))).toEqual(['hate', 'violence']);
  });

  it('asks the OpenAI moderation endpoint with the provider credential and maps the answer to our categories', async () => {
    const s = stageFor();
    const r = await s.ask(["a calm sentence", "sim-flag:self-harm/intent and sim-flag:violence/graphic"], 5000);
    expect(r).toEqual({ ok: true, flagged: new Set(['self-harm', 'violence/graphic']) });
    const seen = sim.stats().endpoints['/mod']!;
    expect(seen.lastPath).toBe('/mod/v1/moderations');
    expect(seen.lastHeaders.authorization).toBe('Bearer sk-mod');
    expect(seen.lastBody).toEqual({ model: 'omni-moderation-latest', input: ['a calm sentence', 'sim-flag:self-harm/intent and sim-flag:violence/graphic'] });
  });

  it('gives no verdict when the endpoint is late, fails or answers something else: never throws', async () => {
    sim.configure('/mod', { firstByteMs: 300 });
    const started = performance.now();
    const late = await stageFor({ timeoutMs: 50 }).ask(['x'], 5000);
    expect(late).toMatchObject({ ok: false, reason: 'timeout' });
    expect(performance.now() - started).toBeLessThan(250);
    // The remaining guardrail budget caps the stage's own timeout.
    expect(await stageFor({ timeoutMs: 5000 }).ask(['x'], 30)).toMatchObject({ ok: false, reason: 'timeout' });
    sim.configure('/mod', { firstByteMs: 0, fault: '500' });
    expect(await stageFor().ask(['x'], 5000)).toMatchObject({ ok: false, reason: 'error' });
    sim.configure('/mod', { fault: null });
    const wrongKey = new SecondStage(stageFor().config, { agent, env: {} });
    sim.configure('/mod', { apiKey: 'sk-mod' });
    expect(await wrongKey.ask(['x'], 5000)).toMatchObject({ ok: false, reason: 'error', detail: 'moderation endpoint answered 401' });
    sim.configure('/mod', { apiKey: null });
    expect(parseModeration(Buffer.from('{"results":[]}'), 1)).toMatchObject({ ok: false, reason: 'error' });
    expect(parseModeration(Buffer.from('not json'), 1)).toMatchObject({ ok: false, reason: 'error' });
    expect(parseModeration(Buffer.from('{"results":[{"flagged":false}]}'), 1)).toMatchObject({ ok: false, reason: 'error' });
  });

  it('refuses a provider without an OpenAI-format moderation endpoint', () => {
    expect(() => stageFor({ endpoint: { provider: 'anthropic', upstreamModel: 'x', baseUrl: 'http://127.0.0.1:1/v1', apiKeyEnv: null } })).toThrow(/no OpenAI-format moderation endpoint/);
  });
});
