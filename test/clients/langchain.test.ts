/**
 * LangChain (ChatOpenAI with and without the responses API, ChatAnthropic) against the gateway, on one
 * model of each provider family: invoke, stream with usage, a bindTools round trip, withStructuredOutput in
 * every method the class offers, and abort. Usage is checked against what the simulator reported.
 */
import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
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

type Kind = 'ChatOpenAI' | 'ChatOpenAI responses' | 'ChatAnthropic';
const KINDS: Kind[] = ['ChatOpenAI', 'ChatOpenAI responses', 'ChatAnthropic'];
const METHODS: Record<Kind, ('functionCalling' | 'jsonMode' | 'jsonSchema')[]> = {
  ChatOpenAI: ['functionCalling', 'jsonMode', 'jsonSchema'],
  'ChatOpenAI responses': ['functionCalling', 'jsonMode', 'jsonSchema'],
  ChatAnthropic: ['functionCalling', 'jsonSchema'],
};

function chatModel(kind: Kind, family: Family): ChatOpenAI | ChatAnthropic {
  const model = MODELS[family];
  if (kind === 'ChatAnthropic') return new ChatAnthropic({ model, apiKey: t.key, anthropicApiUrl: t.url, maxRetries: 0, streamUsage: true });
  return new ChatOpenAI({
    model,
    apiKey: t.key,
    configuration: { baseURL: `${t.url}/v1` },
    maxRetries: 0,
    streamUsage: true,
    useResponsesApi: kind === 'ChatOpenAI responses',
  });
}

const Movie = z.object({ title: z.string(), year: z.number().int(), genres: z.array(z.string()) });

describe.each(KINDS)('LangChain %s', (kind) => {
  describe.each(FAMILIES)('on %s', (family) => {
    const id = MODELS[family];

    it('invoke reports the usage the upstream reported', async () => {
      const w = await openWindow(t);
      const msg = await chatModel(kind, family).invoke('Say something about trains');
      expect(msg.text.length).toBeGreaterThan(0);
      const { sim } = await expectAccounted(t, w, id);
      expect(msg.usage_metadata).toMatchObject({ input_tokens: sim.input, output_tokens: sim.output });
    });

    it('stream with usage: the concatenated chunks carry the real input and output tokens', async () => {
      const w = await openWindow(t);
      let acc: AIMessageChunk | undefined;
      for await (const chunk of await chatModel(kind, family).stream('Say something about boats')) acc = acc ? acc.concat(chunk) : chunk;
      expect(acc!.text.length).toBeGreaterThan(0);
      const { sim } = await expectAccounted(t, w, id);
      expect(acc!.usage_metadata).toMatchObject({ input_tokens: sim.input, output_tokens: sim.output });
    });

    it('bindTools round trip: tool call, tool result, final answer', async () => {
      const w = await openWindow(t);
      const weather = tool(async ({ city }: { city: string }) => `hail in ${city}`, {
        name: 'get_weather',
        description: 'Weather of a city',
        schema: z.object({ city: z.string() }),
      });
      const llm = chatModel(kind, family).bindTools([weather]);
      const history: BaseMessage[] = [new HumanMessage('Use get_weather for the city of Brest')];
      const first = await llm.invoke(history);
      expect(first.tool_calls).toHaveLength(1);
      const call = first.tool_calls![0]!;
      expect(call.name).toBe('get_weather');
      expect(typeof call.args.city).toBe('string');
      history.push(first, new ToolMessage({ tool_call_id: call.id!, content: String(await weather.invoke(call.args as { city: string })) }));
      const second = await llm.invoke(history);
      expect(second).toBeInstanceOf(AIMessage);
      expect(second.text).toContain('hail');
      const { sim, calls } = await expectAccounted(t, w, id);
      expect(calls).toBe(2);
      expect(first.usage_metadata!.input_tokens + second.usage_metadata!.input_tokens).toBe(sim.input);
      expect(first.usage_metadata!.output_tokens + second.usage_metadata!.output_tokens).toBe(sim.output);
    });

    for (const method of METHODS[kind]) {
      it(`withStructuredOutput (${method})`, async () => {
        const w = await openWindow(t);
        const llm = (chatModel(kind, family) as BaseChatModel).withStructuredOutput(Movie, { method, includeRaw: true });
        const out = await llm.invoke(method === 'jsonMode' ? 'Describe a movie as JSON with title, year and genres' : 'Describe a movie');
        if (method === 'jsonMode') {
          // JSON mode carries no schema (only the prompt names the fields): the guarantee is a JSON object.
          const content = (out.raw as AIMessage).text;
          expect(JSON.parse(content)).toBeTypeOf('object');
        } else {
          expect(Movie.parse(out.parsed)).toEqual(out.parsed);
        }
        const { sim } = await expectAccounted(t, w, id);
        expect((out.raw as AIMessage).usage_metadata).toMatchObject({ input_tokens: sim.input, output_tokens: sim.output });
      });
    }

    it('abort: the stream stops and nothing stays held', async () => {
      await openWindow(t);
      await chatModel(kind, family).invoke('warm up');
      const prefixes = Object.keys(t.sim.stats().endpoints);
      await openWindow(t);
      for (const prefix of prefixes) t.sim.configure(prefix, { msPerToken: 40 });
      const ac = new AbortController();
      let chunks = 0;
      await expect(
        (async () => {
          for await (const chunk of await chatModel(kind, family).stream('Tell a long story', { signal: ac.signal })) {
            if (chunk.text && ++chunks === 2) ac.abort();
          }
        })(),
      ).rejects.toThrow(/abort/i);
      expect(chunks).toBe(2);
      for (let i = 0; i < 200 && (await t.store.getBalance(t.orgId)).held !== 0; i++) await new Promise((res) => setTimeout(res, 10));
      expect((await t.store.getBalance(t.orgId)).held).toBe(0);
      await new Promise((res) => setTimeout(res, 100)); // the cut upstream call winds down before the next case
      t.sim.reset();
    });
  });
});
