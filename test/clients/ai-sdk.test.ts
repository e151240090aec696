/**
 * The Vercel AI SDK (ai 6 with @ai-sdk/openai chat and responses models, @ai-sdk/anthropic and
 * @ai-sdk/openai-compatible) against the gateway, on one model of each provider family: generateText,
 * streamText (text and full streams), multi-step tools (the responses model sends earlier output back as
 * item_reference), generateObject, streamObject and abort. Usage and cost are checked against the simulator.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, generateText, stepCountIs, streamObject, streamText, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestGateway } from '../helpers/gateway.js';
import { expectAccounted, openWindow } from './accounting.js';
import { FAMILIES, MODELS, startClientGateway, type Family } from './helpers.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startClientGateway();
});
afterAll(async () => t.close());

type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'openai-compatible';
const PROVIDERS: Provider[] = ['openai-chat', 'openai-responses', 'anthropic', 'openai-compatible'];

function modelFor(provider: Provider, family: Family): LanguageModel {
  const id = MODELS[family];
  const baseURL = `${t.url}/v1`;
  switch (provider) {
    case 'openai-chat':
      return createOpenAI({ baseURL, apiKey: t.key }).chat(id);
    case 'openai-responses':
      return createOpenAI({ baseURL, apiKey: t.key }).responses(id);
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: t.key })(id);
    case 'openai-compatible':
      return createOpenAICompatible({ name: 'svc', baseURL, apiKey: t.key, includeUsage: true, supportsStructuredOutputs: true }).chatModel(id);
  }
}

const Recipe = z.object({ title: z.string(), servings: z.number().int(), steps: z.array(z.string()) });

describe.each(PROVIDERS)('AI SDK %s', (provider) => {
  describe.each(FAMILIES)('on %s', (family) => {
    const id = MODELS[family];
    const model = () => modelFor(provider, family);

    it('generateText', async () => {
      const w = await openWindow(t);
      const r = await generateText({ model: model(), prompt: 'Say something about the sea', maxRetries: 0 });
      expect(r.text.length).toBeGreaterThan(0);
      const { sim } = await expectAccounted(t, w, id);
      expect(r.usage.inputTokens).toBe(sim.input);
      expect(r.usage.outputTokens).toBe(sim.output);
    });

    it('streamText: textStream and fullStream', async () => {
      const w = await openWindow(t);
      const r = streamText({ model: model(), prompt: 'Say something about the forest', maxRetries: 0 });
      let text = '';
      for await (const part of r.textStream) text += part;
      expect(text).toBe(await r.text);
      const { sim } = await expectAccounted(t, w, id);
      expect((await r.usage).inputTokens).toBe(sim.input);
      expect((await r.usage).outputTokens).toBe(sim.output);

      const w2 = await openWindow(t);
      const full = streamText({ model: model(), prompt: 'Say something about the desert', maxRetries: 0 });
      const types = new Set<string>();
      let finishUsage: { inputTokens: number | undefined; outputTokens: number | undefined } | null = null;
      for await (const part of full.fullStream) {
        types.add(part.type);
        if (part.type === 'finish') finishUsage = part.totalUsage;
        if (part.type === 'error') throw part.error;
      }
      expect(types).toContain('text-delta');
      const second = await expectAccounted(t, w2, id);
      expect(finishUsage).toMatchObject({ inputTokens: second.sim.input, outputTokens: second.sim.output });
    });

    it('multi-step tools: the tool runs and a second step answers with its result', async () => {
      const w = await openWindow(t);
      const calls: unknown[] = [];
      const r = await generateText({
        model: model(),
        prompt: 'Use get_weather for the city of Nantes',
        maxRetries: 0,
        tools: {
          get_weather: tool({
            description: 'Weather of a city',
            inputSchema: z.object({ city: z.string(), unit: z.enum(['c', 'f']) }),
            execute: async (input) => {
              calls.push(input);
              return { forecast: 'drizzle', unit: input.unit };
            },
          }),
        },
        stopWhen: stepCountIs(3),
      });
      expect(calls).toHaveLength(1);
      expect(r.steps.length).toBe(2);
      expect(r.text).toContain('drizzle');
      const { sim, calls: upstreamCalls } = await expectAccounted(t, w, id);
      expect(upstreamCalls).toBe(2);
      expect(r.totalUsage.inputTokens).toBe(sim.input);
      expect(r.totalUsage.outputTokens).toBe(sim.output);
    });

    it('generateObject and streamObject', async () => {
      const w = await openWindow(t);
      const r = await generateObject({ model: model(), schema: Recipe, prompt: 'A pancake recipe', maxRetries: 0 });
      expect(Recipe.parse(r.object)).toEqual(r.object);
      const { sim } = await expectAccounted(t, w, id);
      expect(r.usage.inputTokens).toBe(sim.input);

      const w2 = await openWindow(t);
      const s = streamObject({ model: model(), schema: Recipe, prompt: 'A soup recipe', maxRetries: 0 });
      let partials = 0;
      for await (const partial of s.partialObjectStream) if (partial) partials++;
      const object = await s.object;
      expect(Recipe.parse(object)).toEqual(object);
      expect(partials).toBeGreaterThan(0);
      const second = await expectAccounted(t, w2, id);
      expect((await s.usage).outputTokens).toBe(second.sim.output);
    });

    it('abort: the stream stops, the upstream call is cut and settled as aborted, nothing stays held', async () => {
      await openWindow(t);
      await generateText({ model: model(), prompt: 'warm up', maxRetries: 0 });
      const prefixes = Object.keys(t.sim.stats().endpoints);
      const w = await openWindow(t);
      for (const prefix of prefixes) t.sim.configure(prefix, { msPerToken: 40 });
      const ac = new AbortController();
      const r = streamText({ model: model(), prompt: 'Tell a long story', abortSignal: ac.signal, maxRetries: 0, onError: () => {} });
      let chunks = 0;
      try {
        for await (const part of r.textStream) {
          if (part && ++chunks === 2) ac.abort();
          if (chunks > 2) break;
        }
      } catch (e) {
        expect(String(e)).toMatch(/abort/i);
      }
      expect(chunks).toBe(2);
      let aborted: string | undefined;
      for (let i = 0; i < 200 && aborted === undefined; i++) {
        await t.gw.deps.settlement.flush();
        aborted = (await t.store.listLedger(t.orgId)).find((e) => !w.before.has(e.requestId) && e.status === 'aborted')?.requestId;
        if (aborted === undefined) await new Promise((res) => setTimeout(res, 10));
      }
      expect(aborted).toBeDefined();
      expect((await t.store.getBalance(t.orgId)).held).toBe(0);
      await new Promise((res) => setTimeout(res, 100)); // the cut upstream call winds down before the next case
      t.sim.reset();
    });
  });
});
