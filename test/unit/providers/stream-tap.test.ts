import { describe, expect, it } from 'vitest';
import { OpenAIStreamTap, stripNullUsage } from '../../../src/providers/openai/stream-tap.js';
import { lastUsageObject } from '../../../src/providers/usage-tap.js';

const chunk = (content: string) => `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}],"usage":null}\n\n`;
const usage = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}\n\n';
const done = 'data: [DONE]\n\n';
/** What a client that did not ask for usage sees: no `"usage":null` key (issue: the Mistral SDK rejects it). */
const bare = (content: string) => chunk(content).replace(',"usage":null', '');

/** What the tap forwards as the chunks come, then (after `|`) the end it held back. */
function run(tap: OpenAIStreamTap, text: string, splitEvery: number): string {
  const buf = Buffer.from(text);
  let out = '';
  for (let i = 0; i < buf.length; i += splitEvery) out += tap.feed(buf.subarray(i, i + splitEvery)).toString();
  return out + tap.flush().toString() + '|' + tap.end.toString();
}

describe('OpenAIStreamTap', () => {
  const stream = chunk('Hel') + chunk('lo') + usage + done;
  for (const split of [1, 3, 7, 64, 10_000]) {
    it(`drops the unrequested usage chunk and usage:null keys, finds usage, holds [DONE] back (split ${split})`, () => {
      const tap = new OpenAIStreamTap(false);
      const out = run(tap, stream, split);
      expect(out).toBe(bare('Hel') + bare('lo') + '|' + done);
      expect(out).not.toContain('"usage"');
      expect(tap.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
      expect(tap.contentEvents).toBe(2);
      expect(tap.sawDone).toBe(true);
    });
  }
  it('rewrites every event through the given function, [DONE] and dropped usage excepted', () => {
    const tap = new OpenAIStreamTap(false, (ev) => Buffer.from(ev.toString().replace('"id":"c"', '"id":"X"')));
    const out = run(tap, stream, 5);
    expect(out).toBe(bare('Hel').replace('"id":"c"', '"id":"X"') + bare('lo').replace('"id":"c"', '"id":"X"') + '|' + done);
  });

  it('cuts only the top-level `"usage":null` key: not one quoted in content, not one written with a space', () => {
    const quoted = chunk('say \\"usage\\":null, please');
    const spaced = 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"usage": null}\n\n';
    const tap = new OpenAIStreamTap(false);
    const out = run(tap, quoted + spaced + done, 10_000);
    expect(out).toBe(bare('say \\"usage\\":null, please') + spaced + '|' + done);
    expect(tap.contentEvents).toBe(2);
  });

  it('keeps the usage chunk when the client asked for it', () => {
    const tap = new OpenAIStreamTap(true);
    expect(run(tap, stream, 5)).toBe(chunk('Hel') + chunk('lo') + usage + '|' + done);
  });

  it('holds back whatever follows [DONE] with it, in order, and a [DONE] left without its blank line', () => {
    const after = 'data: {"late":true}\n\n';
    expect(run(new OpenAIStreamTap(true), chunk('a') + done + after, 4)).toBe(chunk('a') + '|' + done + after);
    expect(run(new OpenAIStreamTap(true), chunk('a') + 'data: [DONE]', 7)).toBe(chunk('a') + '|data: [DONE]');
    const none = new OpenAIStreamTap(true);
    expect(run(none, chunk('a'), 3)).toBe(chunk('a') + '|');
    expect(none.sawDone).toBe(false);
  });
});

describe('stripNullUsage', () => {
  it('removes the key with its comma wherever it sits, and leaves real usage alone', () => {
    const s = (t: string) => stripNullUsage(Buffer.from(t)).toString();
    expect(s('data: {"a":1,"usage":null}\n\n')).toBe('data: {"a":1}\n\n');
    expect(s('data: {"usage":null,"a":1}\n\n')).toBe('data: {"a":1}\n\n');
    expect(s('data: {"usage":{"prompt_tokens":1}}\n\n')).toBe('data: {"usage":{"prompt_tokens":1}}\n\n');
  });
});

describe('lastUsageObject', () => {
  it('finds the last usage object, skipping usage: null and nested braces in strings', () => {
    const text = '{"usage":null,"choices":[{"message":{"content":"a } \\" {"}}],"usage":{"prompt_tokens":3,"prompt_tokens_details":{"cached_tokens":1}}}';
    expect(lastUsageObject(text)).toEqual({ prompt_tokens: 3, prompt_tokens_details: { cached_tokens: 1 } });
    expect(lastUsageObject('{"x":1}')).toBeNull();
  });
});
