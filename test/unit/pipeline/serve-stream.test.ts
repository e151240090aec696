/**
 * serveStream (the OpenAI-format passthrough) over a recording sink: every answer byte is written as it is read,
 * and only the end (usage comment, `data: [DONE]`) waits for the sink's end, which the journaling sink holds until the
 * request's settlement is written (finish.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../src/config/schema.js';
import type { Candidate } from '../../../src/pipeline/chain.js';
import { serveStream } from '../../../src/pipeline/serve-chat.js';
import { RequestState } from '../../../src/pipeline/state.js';
import { adapterFor } from '../../../src/providers/registry.js';
import type { IncomingRequest, ResponseSink } from '../../../src/server/types.js';
import { UpstreamBody } from '../../../src/upstream/body.js';

const event = (content: string): string =>
  `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}],"usage":null}\n\n`;
const usageEvent = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}\n\n';
const DONE = 'data: [DONE]\n\n';
const bare = (content: string): string => event(content).replace(',"usage":null', '');

const model = { id: 'm', pricing: { input: 1, output: 2 } } as unknown as ModelConfig;
const candidate = { chainIndex: 0, model, endpoint: {}, adapter: adapterFor('openai')!, key: 'k' } as unknown as Candidate;

async function serve(upstream: string, fallbackCalls: number[] = []) {
  const body = new UpstreamBody(() => {}, () => {});
  body.push(Buffer.from(upstream));
  body.end();
  const st = new RequestState({ path: '/v1/chat/completions', startedAt: 0 } as unknown as IncomingRequest);
  const writes: string[] = [];
  let end: string | null = null;
  const res: ResponseSink = {
    aborted: false,
    backpressureEvents: 0,
    onAbort: () => {},
    send: () => {},
    begin: () => {},
    write(chunk) {
      if (chunk.length > 0) writes.push(Buffer.from(chunk).toString());
      return true;
    },
    drained: () => Promise.resolve(),
    end(...chunks) {
      end = chunks.map((c) => Buffer.from(c).toString()).join('');
    },
    cut: () => {},
  };
  const fallback = async (outputTokens: number) => {
    fallbackCalls.push(outputTokens);
    return { inputTokens: 11, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  };
  const outcome = await serveStream(st, res, candidate, { statusCode: 200, body }, false, fallback, null, 10_000);
  return { outcome, writes, end: end as string | null, st };
}

describe('serveStream', () => {
  it('writes a whole answer read at once before its end; the end carries only the usage comment and [DONE]', async () => {
    const { outcome, writes, end, st } = await serve(event('Hel') + event('lo') + usageEvent + DONE);
    expect(outcome).toBe('ok');
    expect(writes).toEqual([bare('Hel') + bare('lo')]);
    expect(end).toMatch(/^: x-svc-usage \{.*\}\n\ndata: \[DONE\]\n\n$/);
    const usage = JSON.parse(/^: x-svc-usage (\{.*\})$/m.exec(end!)![1]!) as Record<string, unknown>;
    expect(usage).toMatchObject({ cost_status: 'exact', input_tokens: 7, output_tokens: 2, total_tokens: 9 });
    expect(st.usage).toMatchObject({ inputTokens: 7, outputTokens: 2 });
  });

  it('an upstream that reported no usage is priced on our count, and its end still carries the usage comment', async () => {
    const calls: number[] = [];
    const { outcome, writes, end, st } = await serve(event('a') + event('b') + event('c') + DONE, calls);
    expect(outcome).toBe('ok');
    expect(calls).toEqual([3]);
    expect(writes.join('')).toBe(bare('a') + bare('b') + bare('c'));
    expect(JSON.parse(/^: x-svc-usage (\{.*\})$/m.exec(end!)![1]!)).toMatchObject({ input_tokens: 11, output_tokens: 3 });
    expect(end!.endsWith(DONE)).toBe(true);
    expect(st.usage?.outputTokens).toBe(3);
  });

  it('an upstream that ends without [DONE] ends with an error event, never [DONE]', async () => {
    const { outcome, writes, end } = await serve(event('a') + usageEvent);
    expect(outcome).toBe('error');
    expect(writes).toEqual([bare('a')]);
    expect(end).toContain('"code":"service_unavailable"');
    expect(end).not.toContain('[DONE]');
  });
});
