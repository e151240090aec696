/**
 * Each provider's error bodies become the contract's error object with the right status and code, through
 * the gateway; the credential the gateway sent never appears in what the client gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../src/config/schema.js';
import type { FaultKind } from '../../../src/sim/server.js';
import { simulatedEndpoint } from '../../../src/sim/upstream-urls.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { post } from '../../helpers/refusal.js';

const SECRET = 'sk-live-SECRETSECRETSECRET0123456789';
const PROVIDERS: [string, string][] = [
  ['openai', 'gpt-4o-mini'],
  ['azure', 'prod-gpt-4o'],
  ['openai-compatible', 'llama-3.1-8b-instruct'],
  ['mistral', 'mistral-large-latest'],
  ['anthropic', 'claude-sonnet-4-20250514'],
  ['bedrock', 'us.anthropic.claude-sonnet-4-20250514-v1:0'],
  ['gemini', 'gemini-2.0-flash'],
  ['vertex', 'gemini-2.0-flash'],
];
/** Upstream fault -> the client's status and error.code. */
const EXPECT: [FaultKind, number, string][] = [
  ['400', 400, 'invalid_request'],
  ['401', 503, 'service_unavailable'],
  ['429', 429, 'rate_limit_exceeded'],
  ['500', 503, 'service_unavailable'],
  ['503', 503, 'service_unavailable'],
  ['529', 503, 'service_unavailable'],
];

describe('provider error mapping through the gateway', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' }, health: { failureThreshold: 1000 } },
      patch: (c) => {
        const simUrl = c.models.find((m) => m.id === 'gpt-4o')!.endpoints[0]!.baseUrl.replace(/\/v1$/, '');
        for (const [provider, upstreamModel] of PROVIDERS) {
          const ep = simulatedEndpoint({ provider, upstreamModel, baseUrl: 'https://unused', apiKeyEnv: null }, simUrl, `/er-${provider}`);
          // Every provider's credential slot carries the same recognisable secret (Bedrock/Vertex keep theirs).
          const model: ModelConfig = {
            id: `errors/${provider}`,
            ownedBy: provider,
            created: 1_735_689_600,
            contextLength: 128_000,
            maxOutput: 4_096,
            pricing: { input: 1, output: 2 },
            endpoints: [{ ...ep, apiKeyEnv: ep.apiKeyEnv ?? 'ERRORS_TEST_KEY' }],
          };
          c.models.push(model);
        }
      },
    });
    t.gw.deps.env.ERRORS_TEST_KEY = SECRET;
    t.gw.deps.env.SVC_SIM_TOKEN = SECRET;
  });
  afterAll(async () => t?.close());

  for (const [provider] of PROVIDERS) {
    for (const [fault, status, code] of EXPECT) {
      it(`${provider}: upstream ${fault} -> ${status} ${code}`, async () => {
        t.sim.configure(`/er-${provider}`, { fault, faultCount: 1 });
        const res = await post(t, '/v1/chat/completions', { model: `errors/${provider}`, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
        const text = await res.text();
        expect(res.status, text).toBe(status);
        const body = JSON.parse(text) as { error: { message: string; type: string; code?: string } };
        expect(body.error.code).toBe(code);
        expect(typeof body.error.message).toBe('string');
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('SECRETSECRET');
        expect((await t.store.getBalance(t.orgId)).held).toBe(0);
      });
    }
  }
});
