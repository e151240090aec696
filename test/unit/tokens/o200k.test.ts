import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonl, trainingPaths } from '../../../scripts/guard/data.js';
import { projectRoot } from '../../../src/pool/pool.js';
import { countO200k, O200k } from '../../../src/tokens/o200k.js';

// Every count is compared with tiktoken's own encode_ordinary on the same text: the packed tables must give exactly
// what the WebAssembly tokenizer gives (billing of streams without upstream usage, count_tokens, context checks).
const tiktoken: Tiktoken = get_encoding('o200k_base');
const ours = O200k.load();
afterAll(() => tiktoken.free());

const expected = (text: string): number => tiktoken.encode_ordinary(text).length;

function mismatches(texts: Iterable<string>): { text: string; ours: number; tiktoken: number }[] {
  const out = [];
  for (const text of texts) {
    const a = ours.count(text);
    const b = expected(text);
    if (a !== b) out.push({ text: text.slice(0, 200), ours: a, tiktoken: b });
  }
  return out;
}

describe('o200k counts equal tiktoken', () => {
  it('loads the whole vocabulary', () => {
    expect(ours.size).toBe(199_998);
  });

  it('on the cases where JavaScript and Rust regexes differ, and on merges', () => {
    const cases = [
      '',
      'You are a helpful assistant.',
      "It's 'S 'ſ 'LL 'Ve they'RE I'd",
      '\u0085x\ufeffy \u00a0z\u3000w',
      'a\ud800b \udc00 lone surrogates',
      '😀😀😀 👩‍👩‍👧 e\u0301',
      '日本語のテキスト 123456 €€€ ﬁǅ',
      '   \n\t  \r\n end   ',
      'https://example.com/a/b?c=d&e=f',
      '<|endoftext|> is ordinary text here',
      'x'.repeat(97),
      'ab'.repeat(300),
      '日'.repeat(200),
      '!.-'.repeat(120),
      '1234567890'.repeat(20),
    ];
    expect(mismatches(cases)).toEqual([]);
  });

  it('on the guardrail training corpus (26k prompts of several languages and styles)', () => {
    const texts = readJsonl(trainingPaths(projectRoot()).data)
      .map((row) => row.text)
      .filter((t): t is string => typeof t === 'string');
    expect(texts.length).toBeGreaterThan(20_000);
    expect(mismatches(texts)).toEqual([]);
  }, 60_000);

  it('on source and markdown files (code, tables, long lines)', () => {
    const root = projectRoot();
    const files = ['README.md', 'docs/memory.md', 'src/tokens/o200k.ts', 'src/pool/pool.ts', 'package-lock.json'];
    expect(mismatches(files.map((f) => readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });

  it('on random strings over the characters the pattern treats specially', () => {
    const chars = [...' \t\n\r\u0085\u00a0\u3000\ufeff\'sStTlLdDmMrReEvVſ0123456789abXY.,!?/-_()"é日😀\u0301\u200dßﬁǅ'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(ours.count(text)).toBe(expected(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('on random Unicode strings, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(ours.count(text)).toBe(expected(text));
      }),
      { numRuns: 10_000 },
    );
  });

  it('on long pieces, merged through the heap (over 96 bytes)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzé'), minLength: 97, maxLength: 600 }), (text) => {
        expect(ours.count(text)).toBe(expected(text));
      }),
      { numRuns: 500 },
    );
  });

  it('hands its tables over on shared memory: a counter built from them (as the tokenizer thread builds one) counts the same', () => {
    const { bytes, offsets, slots } = ours.tables;
    for (const t of [bytes, offsets, slots]) expect(t.buffer).toBeInstanceOf(SharedArrayBuffer);
    const { port1, port2 } = new MessageChannel();
    // A structured clone of the tables shares the memory: a write through the clone is seen through the original.
    return new Promise<void>((resolve) => {
      port2.once('message', (tables: typeof ours.tables) => {
        const theirs = O200k.fromTables(tables);
        const text = 'A pasted document, line after line of it. '.repeat(40);
        expect(theirs.count(text)).toBe(expected(text));
        const before = tables.slots[0]!;
        tables.slots[0] = 12_345;
        expect(slots[0]).toBe(12_345);
        tables.slots[0] = before;
        port1.close();
        resolve();
      });
      port1.postMessage(ours.tables);
    });
  });

  it('counts within a merge budget, or says -1 as soon as the merges would exceed it', () => {
    const prose = 'The invoice for October was charged twice, and our team reviewed each ledger entry before closing the ticket.';
    expect(ours.countWithin([prose, prose], 16_384)).toBe(2 * expected(prose));
    // One piece of 1,000 bytes that is no token: 1,000,000 of merge work.
    expect(ours.countWithin(['a'.repeat(1000)], 16_384)).toBe(-1);
    expect(ours.countWithin([prose, 'a'.repeat(1000)], 16_384)).toBe(-1);
    // The budget is shared by the texts: each alone fits, together they do not (a 90-byte piece costs 8,100).
    const word = 'qzxv'.repeat(22) + 'qz';
    expect(ours.countWithin([word], 10_000)).toBe(expected(word));
    expect(ours.countWithin([word, word], 10_000)).toBe(-1);
    // count() has no budget, after a countWithin that ran out.
    expect(ours.count(word + ' ' + word)).toBe(expected(word + ' ' + word));
  });

  it('sums several texts', () => {
    expect(countO200k(['hello world', 'another line of text'])).toBe(expected('hello world') + expected('another line of text'));
  });
});
