/**
 * Issue 3 matrix: {chat, completions, responses, messages} x {each provider} x {stream, not} x {plain text,
 * tool round trip}, through the gateway in front of the simulator, with the official openai and
 * @anthropic-ai/sdk clients. Every cell: the SDK parses the answer, content and tool calls survive, the
 * finish/stop reason maps, token counts equal the usage, and the cost equals the list-price math.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../../../src/billing/price.js';
import type { ModelConfig, ModelPricing } from '../../../src/config/schema.js';
import { simulatedEndpoint } from '../../../src/sim/upstream-urls.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { chatDriver, completionsDriver, messagesDriver, responsesDriver, type Driver, type Kind } from './drivers.js';

const PRICING: ModelPricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
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
const FORMATS = ['chat', 'completions', 'responses', 'messages'] as const;
type Format = (typeof FORMATS)[number];

/** Cells that cannot apply, with the reason. */
export const NOT_APPLICABLE: { format: Format; kind: Kind; reason: string }[] = [
  { format: 'completions', kind: 'tool', reason: 'the legacy completions format has no tools or tool calls' },
];

const TEXT_FINISH: Record<Format, string[]> = {
  chat: ['stop'],
  completions: ['stop'],
  responses: ['completed'],
  messages: ['end_turn'],
};
const TOOL_FINISH: Record<Format, string> = { chat: 'tool_calls', completions: '', responses: 'function_call', messages: 'tool_use' };

describe('format x provider matrix', () => {
  let t: TestGateway;
  const drivers = {} as Record<Format, Driver>;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        const simUrl = c.models.find((m) => m.id === 'gpt-4o')!.endpoints[0]!.baseUrl.replace(/\/v1$/, '');
        for (const [provider, upstreamModel] of PROVIDERS) {
          const model: ModelConfig = {
            id: `matrix/${provider}`,
            ownedBy: provider,
            created: 1_735_689_600,
            contextLength: 128_000,
            maxOutput: 4_096,
            pricing: PRICING,
            endpoints: [simulatedEndpoint({ provider, upstreamModel, baseUrl: 'https://unused', apiKeyEnv: null }, simUrl, `/mx-${provider}`)],
          };
          c.models.push(model);
        }
      },
    });
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: t.key, baseURL: t.url, maxRetries: 0 });
    drivers.chat = chatDriver(openai);
    drivers.completions = completionsDriver(openai);
    drivers.responses = responsesDriver(openai);
    drivers.messages = messagesDriver(anthropic);
  });
  afterAll(async () => t?.close());

  for (const [provider] of PROVIDERS) {
    for (const format of FORMATS) {
      for (const stream of [false, true]) {
        for (const kind of ['text', 'tool'] as Kind[]) {
          const na = NOT_APPLICABLE.find((x) => x.format === format && x.kind === kind);
          const name = `${format} -> ${provider}, ${stream ? 'stream' : 'non-stream'}, ${kind}`;
          if (na) continue; // listed in NOT_APPLICABLE with its reason
          it(name, async () => {
            const seen = await drivers[format](`matrix/${provider}`, stream, kind);
            expect(seen.text.length, 'answer text').toBeGreaterThan(0);
            expect(TEXT_FINISH[format]).toContain(seen.finish);
            if (kind === 'tool') {
              expect(seen.tool, 'tool call survived').not.toBeNull();
              expect(seen.tool!.name).toBe('get_weather');
              expect(seen.tool!.args).toEqual({ location: 'Paris' });
              expect(seen.toolFinish).toBe(TOOL_FINISH[format]);
              expect(seen.text).toContain('22');
            }
            await t.gw.deps.settlement.flush();
            const entry = await t.store.getLedgerEntry(t.orgId, seen.requestIds.at(-1)!);
            expect(entry, 'settled').not.toBeNull();
            expect(entry!.model).toBe(`matrix/${provider}`);
            const usage = {
              inputTokens: entry!.inputTokens,
              outputTokens: entry!.outputTokens,
              cacheReadTokens: entry!.cacheReadTokens,
              cacheWriteTokens: entry!.cacheWriteTokens,
              reasoningTokens: 0,
            };
            expect(entry!.cost).toBe(costOf(PRICING, usage));
            const billedIn = entry!.inputTokens + entry!.cacheReadTokens + entry!.cacheWriteTokens;
            if (seen.usage) {
              expect(seen.usage.input, 'client usage = billed input').toBe(billedIn);
              expect(seen.usage.output, 'client usage = billed output').toBe(entry!.outputTokens);
            }
            if (!stream) {
              expect(Number(seen.headers.get('x-svc-input-tokens'))).toBe(billedIn);
              expect(Number(seen.headers.get('x-svc-output-tokens'))).toBe(entry!.outputTokens);
              expect(Math.round(Number(seen.headers.get('x-svc-request-cost')) * 1e9)).toBe(entry!.cost);
              expect(seen.headers.get('x-svc-model')).toBe(`matrix/${provider}`);
            }
          });
        }
      }
    }
  }
});
