/**
 * Issue "Trust defects", item 2: one SSE reader for the product. Property tests over LF, CRLF, CR and mixed
 * line endings at arbitrary byte splits, through the raw framer, the decoded reader, the passthrough tap
 * (byte-for-byte forwarding, usage found, [DONE] seen) and the OpenAI stream decoder of the canonical path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../src/canonical/types.js';
import { OpenAIStreamTap } from '../../../src/providers/openai/stream-tap.js';
import { adapterFor } from '../../../src/providers/registry.js';
import { SseFramer, SseReader, type SseEvent } from '../../../src/providers/sse.js';

const EOLS = ['\n', '\r\n', '\r'] as const;
type Eol = (typeof EOLS)[number];

/** Joins lines with the given terminators; a CR followed by an LF-terminated blank line would read as one CRLF, so it becomes CR. */
function frame(lines: string[], eols: Eol[]): string {
  let out = '';
  let prev: Eol | null = null;
  lines.forEach((line, i) => {
    let eol = eols[i % eols.length]!;
    if (line === '' && prev === '\r' && eol !== '\r') eol = '\r';
    out += line + eol;
    prev = eol;
  });
  return out;
}

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const sorted = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let at = 0;
  for (const c of [...sorted, bytes.length]) {
    parts.push(bytes.subarray(at, c));
    at = c;
  }
  return parts;
}

const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', ' ', 'é', '😀', ':', '"', '\\', '{', '}'), fc.string({ unit: 'grapheme-ascii', maxLength: 1 })) }).map((s) => s.replace(/[\r\n]/g, ''));
const eolArb = fc.array(fc.constantFrom<Eol>(...EOLS), { minLength: 1, maxLength: 6 });
const cutsArb = fc.array(fc.nat(4000), { maxLength: 12 });

describe('SseReader / SseFramer properties', () => {
  it('decodes the same events for every line ending mix and every split; frames are lossless', () => {
    const eventArb = fc.record({
      event: fc.option(text.filter((s) => s.length > 0), { nil: null }),
      data: fc.array(text, { minLength: 1, maxLength: 3 }),
      comment: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 6 }), eolArb, cutsArb, (events, eols, cuts) => {
        const lines: string[] = [];
        for (const e of events) {
          if (e.comment) lines.push(': keep-alive');
          if (e.event !== null) lines.push(`event: ${e.event}`);
          for (const d of e.data) lines.push(`data: ${d}`);
          lines.push('');
        }
        const bytes = Buffer.from(frame(lines, eols));
        const expected: SseEvent[] = events.map((e) => ({ event: e.event, data: e.data.join('\n') }));
        const reader = new SseReader();
        const framer = new SseFramer();
        const got: SseEvent[] = [];
        const raw: Buffer[] = [];
        for (const part of splitAt(bytes, cuts)) {
          got.push(...reader.push(part));
          raw.push(...framer.push(part).map((f) => Buffer.from(f)));
        }
        const end = reader.end();
        got.push(...end.events);
        raw.push(framer.end().rest);
        expect(got).toEqual(expected);
        expect(end.truncated).toBe(false);
        expect(Buffer.concat(raw).equals(bytes)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('every single split point of one mixed-ending stream', () => {
    const bytes = Buffer.from('event: a\r\ndata: x\r\r\ndata: é\n\ndata: y\rdata: z\r\r: c\n\n');
    const want = [
      { event: 'a', data: 'x' },
      { event: null, data: 'é' },
      { event: null, data: 'y\nz' },
    ];
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        const r = new SseReader();
        const got = [...r.push(bytes.subarray(0, i)), ...r.push(bytes.subarray(i, j)), ...r.push(bytes.subarray(j)), ...r.end().events];
        expect(got, `split ${i}/${j}`).toEqual(want);
      }
    }
  });
});

/** An OpenAI chat stream: content chunks (text may quote `"usage":{`), the usage chunk, [DONE]. */
function openAiStream(contents: string[], usage: { prompt: number; completion: number }, eols: Eol[]): { bytes: Buffer; usageEvent: string } {
  const lines: string[] = [];
  for (const c of contents) {
    lines.push(`data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(c)}},"finish_reason":null}],"usage":null}`, '');
  }
  lines.push('data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}', '');
  const usageEvent = `data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":${usage.prompt},"completion_tokens":${usage.completion},"total_tokens":${usage.prompt + usage.completion}}}`;
  lines.push(usageEvent, '', 'data: [DONE]', '');
  return { bytes: Buffer.from(frame(lines, eols)), usageEvent };
}

const streamArb = fc.record({
  contents: fc.array(fc.oneof(text, fc.constant('"usage":{"prompt_tokens":999}'), fc.constant('data: [DONE]')), { maxLength: 5 }),
  prompt: fc.integer({ min: 1, max: 100_000 }),
  completion: fc.integer({ min: 1, max: 100_000 }),
  eols: eolArb,
  cuts: cutsArb,
});

describe('passthrough tap and canonical decoder over any line endings and splits', () => {
  it('the tap forwards the bytes unchanged with [DONE] held back, sees [DONE] once, counts content, finds the reported usage', () => {
    fc.assert(
      fc.property(streamArb, fc.boolean(), ({ contents, prompt, completion, eols, cuts }, forwardUsage) => {
        const { bytes } = openAiStream(contents, { prompt, completion }, eols);
        const tap = new OpenAIStreamTap(forwardUsage);
        const out: Buffer[] = [];
        for (const part of splitAt(bytes, cuts)) out.push(Buffer.from(tap.feed(part)));
        out.push(tap.flush());
        expect(tap.sawDone).toBe(true);
        expect(tap.usage).toEqual({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
        expect(tap.contentEvents).toBe(contents.length);
        // The stream's end (its [DONE] event) is held back for the caller; the rest is forwarded as it comes.
        const end = tap.end.toString('utf8');
        expect(end.startsWith('data: [DONE]')).toBe(true);
        const forwarded = Buffer.concat(out).toString('utf8');
        expect(/(^|[\r\n])data: \[DONE\]/.test(forwarded)).toBe(false);
        const whole = forwarded + end;
        if (forwardUsage) expect(whole).toBe(bytes.toString('utf8'));
        else expect(whole.includes('"choices":[],"usage":{')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('the OpenAI stream decoder (canonical path) reports the upstream usage and finishes', () => {
    const adapter = adapterFor('openai')!;
    fc.assert(
      fc.property(streamArb, ({ contents, prompt, completion, eols, cuts }) => {
        const { bytes } = openAiStream(contents, { prompt, completion }, eols);
        const dec = adapter.streamDecoder();
        const events: CanonicalStreamEvent[] = [];
        for (const part of splitAt(bytes, cuts)) events.push(...dec.push(part));
        events.push(...dec.end());
        const usage = events.find((e) => e.type === 'usage');
        expect(usage && usage.type === 'usage' ? [usage.usage.inputTokens, usage.usage.outputTokens] : null).toEqual([prompt, completion]);
        expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
        const text = events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
        expect(text).toBe(contents.join(''));
      }),
      { numRuns: 300 },
    );
  });
});
