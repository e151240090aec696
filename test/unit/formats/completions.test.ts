import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/types.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { decodeCompletions, planCompletions, wantsStreamUsage } from '../../../src/formats/completions/decode.js';
import { completionsEncodeContext, encodeCompletions } from '../../../src/formats/completions/encode.js';
import { CompletionsStreamEncoder } from '../../../src/formats/completions/encode-stream.js';
import { completionsFormat } from '../../../src/formats/completions/index.js';
import { canon, ctx, encodeAll, eventsOf, expectInvalid, FakeUpstream, response, usage } from './helpers.js';

const user = (text: string): CanonicalRequest['messages'] => [{ role: 'user', content: [{ type: 'text', text }] }];

describe('completions decode', () => {
  it('a prompt string with defaults: max_tokens 16, n 1', () => {
    expect(completionsFormat.decode({ model: 'm', prompt: 'Say hi' })).toStrictEqual(canon({ messages: user('Say hi'), maxTokens: 16 }));
  });

  it('a one-element array with every parameter; logprobs go to extensions.openai', () => {
    const got = completionsFormat.decode({
      model: 'm',
      prompt: ['Once'],
      max_tokens: 5,
      temperature: 1.5,
      top_p: 0.5,
      n: 3,
      stream: true,
      stream_options: { include_usage: true },
      logprobs: 5,
      echo: true,
      stop: ['\n', 'END'],
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      seed: 7,
      user: 'u',
      logit_bias: { '1': 2 },
      best_of: 3,
    });
    expect(got).toStrictEqual({
      ...canon({
        messages: user('Once'),
        maxTokens: 5,
        n: 3,
        stream: true,
        stop: ['\n', 'END'],
        user: 'u',
        extensions: { openai: { logitBias: { '1': 2 }, logprobs: true, topLogprobs: 5 } },
      }),
      temperature: 1.5,
      topP: 0.5,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      seed: 7,
    });
  });

  it('logprobs 0 is a request for the sampled tokens only', () => {
    expect(completionsFormat.decode({ model: 'm', prompt: 'x', logprobs: 0 }).extensions).toStrictEqual({ openai: { logprobs: true, topLogprobs: 0 } });
  });

  it('a multi-prompt array decodes to one request per prompt; the single-case format refuses it', () => {
    expect(decodeCompletions({ model: 'm', prompt: ['a', 'b'], n: 2 })).toStrictEqual([
      canon({ messages: user('a'), maxTokens: 16, n: 2 }),
      canon({ messages: user('b'), maxTokens: 16, n: 2 }),
    ]);
    expectInvalid(() => completionsFormat.decode({ model: 'm', prompt: ['a', 'b'] }), 'prompt');
  });

  it('stream_options.include_usage is read for the encode context', () => {
    expect(wantsStreamUsage({ stream_options: { include_usage: true } })).toBe(true);
    expect(wantsStreamUsage({ stream_options: { include_usage: 'yes' } })).toBe(false);
  });

  const ok = { model: 'm', prompt: 'x' };
  const errors: [string, Record<string, unknown>, string][] = [
    ['missing model', { prompt: 'x' }, 'model'],
    ['missing prompt', { model: 'm' }, 'prompt'],
    ['prompt null', { model: 'm', prompt: null }, 'prompt'],
    ['empty prompt array', { model: 'm', prompt: [] }, 'prompt'],
    ['token-id prompt', { model: 'm', prompt: [1, 2, 3] }, 'prompt'],
    ['nested token arrays', { model: 'm', prompt: [[1], [2]] }, 'prompt'],
    ['max_tokens 0', { ...ok, max_tokens: 0 }, 'max_tokens'],
    ['max_tokens string', { ...ok, max_tokens: '16' }, 'max_tokens'],
    ['logprobs 6', { ...ok, logprobs: 6 }, 'logprobs'],
    ['logprobs true', { ...ok, logprobs: true }, 'logprobs'],
    ['five stops', { ...ok, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['stop object', { ...ok, stop: { a: 1 } }, 'stop'],
    ['temperature -0.1', { ...ok, temperature: -0.1 }, 'temperature'],
    ['top_p 1.1', { ...ok, top_p: 1.1 }, 'top_p'],
    ['n 0', { ...ok, n: 0 }, 'n'],
    ['echo "true"', { ...ok, echo: 'true' }, 'echo'],
    ['stream 1', { ...ok, stream: 1 }, 'stream'],
    ['stream with several prompts', { model: 'm', prompt: ['a', 'b'], stream: true }, 'prompt'],
    ['stream_options array', { ...ok, stream_options: [] }, 'stream_options'],
    ['presence_penalty 3', { ...ok, presence_penalty: 3 }, 'presence_penalty'],
    ['frequency_penalty "0"', { ...ok, frequency_penalty: '0' }, 'frequency_penalty'],
    ['suffix', { ...ok, suffix: 'end' }, 'suffix'],
    ['best_of above n', { ...ok, best_of: 3 }, 'best_of'],
    ['user too long', { ...ok, user: 'u'.repeat(201) }, 'user'],
    ['seed string', { ...ok, seed: '1' }, 'seed'],
  ];
  for (const [name, body, param] of errors) {
    it(`400 ${name}`, () => expectInvalid(() => planCompletions(body), param));
  }
});

const U = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };

describe('completions encode', () => {
  it('text_completion with logprobs null and the finish reason', () => {
    expect(completionsFormat.encodeResponse(response({ stopReason: 'length' }), ctx())).toStrictEqual({
      id: 'cmpl-req1',
      object: 'text_completion',
      created: 1_700_000_000,
      model: 'gw-model',
      choices: [{ text: 'Hello world', index: 0, logprobs: null, finish_reason: 'length' }],
      usage: U,
    });
  });

  it('echo prepends each prompt to its choices; choices are prompt-major with n', () => {
    const plan = planCompletions({ model: 'm', prompt: ['A: ', 'B: '], n: 2, echo: true });
    const res = (t: string) => response({ content: [{ type: 'text', text: t }], stopReason: 'stop_sequence', usage: usage({ inputTokens: 1, outputTokens: 1 }) });
    const out = encodeCompletions([res('a1'), res('a2'), res('b1'), res('b2')], completionsEncodeContext(ctx(), plan));
    expect(out.choices).toStrictEqual([
      { text: 'A: a1', index: 0, logprobs: null, finish_reason: 'stop' },
      { text: 'A: a2', index: 1, logprobs: null, finish_reason: 'stop' },
      { text: 'B: b1', index: 2, logprobs: null, finish_reason: 'stop' },
      { text: 'B: b2', index: 3, logprobs: null, finish_reason: 'stop' },
    ]);
    expect(out.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 });
  });

  it('finish reasons: content_filter kept, tool_calls and error read as stop', () => {
    const reason = (stopReason: 'content_filter' | 'tool_calls' | 'error') =>
      (completionsFormat.encodeResponse(response({ stopReason }), ctx()).choices as { finish_reason: string }[])[0]!.finish_reason;
    expect([reason('content_filter'), reason('tool_calls'), reason('error')]).toEqual(['content_filter', 'stop', 'stop']);
  });
});

const H = 'data: {"id":"cmpl-req1","object":"text_completion","created":1700000000,"model":"gw-model","choices":';

describe('completions stream encoder', () => {
  it('text chunks, a finish chunk, [DONE]', () => {
    expect(encodeAll(completionsFormat.streamEncoder(ctx()), eventsOf(response()))).toBe(
      `${H}[{"text":"Hello","index":0,"logprobs":null,"finish_reason":null}]}\n\n` +
        `${H}[{"text":" world","index":0,"logprobs":null,"finish_reason":null}]}\n\n` +
        `${H}[{"text":"","index":0,"logprobs":null,"finish_reason":"stop"}]}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('echo on start, usage chunk when asked', () => {
    const plan = planCompletions({ model: 'm', prompt: 'Q: ', echo: true, stream: true });
    const enc = new CompletionsStreamEncoder(completionsEncodeContext(ctx({ streamUsage: true }), plan));
    const T = ',"usage":null}\n\n';
    expect(encodeAll(enc, eventsOf(response({ content: [{ type: 'text', text: 'A' }] })))).toBe(
      `${H}[{"text":"Q: ","index":0,"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"text":"A","index":0,"logprobs":null,"finish_reason":null}]${T}` +
        `${H}[{"text":"","index":0,"logprobs":null,"finish_reason":"stop"}]${T}` +
        `${H}[],"usage":${JSON.stringify(U)}}\n\n` +
        'data: [DONE]\n\n',
    );
  });
});

describe('completions through the official openai SDK', () => {
  let up: FakeUpstream;
  let client: OpenAI;
  beforeAll(async () => {
    up = await FakeUpstream.start();
    client = new OpenAI({ baseURL: up.url, apiKey: 'x', maxRetries: 0 });
  });
  afterAll(() => up.close());

  it('parses the JSON answer and the stream', async () => {
    const body = completionsFormat.encodeResponse(response(), ctx());
    up.json(body);
    expect(await client.completions.create({ model: 'gw-model', prompt: 'x' })).toStrictEqual(body);

    up.sse(encodeAll(completionsFormat.streamEncoder(ctx({ streamUsage: true })), eventsOf(response())));
    let text = '';
    let finish: string | null = null;
    let tokens = 0;
    for await (const c of await client.completions.create({ model: 'gw-model', prompt: 'x', stream: true, stream_options: { include_usage: true } })) {
      text += c.choices[0]?.text ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
      tokens = c.usage?.total_tokens ?? tokens;
    }
    expect({ text, finish, tokens }).toEqual({ text: 'Hello world', finish: 'stop', tokens: 15 });
  });

  it('an error event raises an APIError', async () => {
    const enc = completionsFormat.streamEncoder(ctx());
    up.sse(enc.push({ type: 'text_delta', index: 0, text: 'x' }) + enc.error(new GatewayError('upstream_error')));
    const s = await client.completions.create({ model: 'gw-model', prompt: 'x', stream: true });
    await expect(async () => {
      for await (const _ of s) void _;
    }).rejects.toThrow(/upstream provider failed/);
  });
});
