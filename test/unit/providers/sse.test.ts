/** SseReader: WHATWG event-stream framing over bytes, identical for every split of the input. */
import { describe, expect, it } from 'vitest';
import { SseReader, type SseEvent } from '../../../src/providers/sse.js';

function read(bytes: Buffer, cuts: number[] = []): SseEvent[] {
  const r = new SseReader();
  const out: SseEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...r.push(bytes.subarray(at, cut)));
    at = cut;
  }
  return [...out, ...r.end().events];
}

const STREAM = [
  ': comment keep-alive',
  'event: message_start',
  'data: {"a":1}',
  '',
  'data: first line',
  'data: second line é',
  '',
  'data:no-space',
  'id: 7',
  'retry: 100',
  '',
  'event: ping',
  '',
  'data',
  '',
];

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"a":1}' },
  { event: null, data: 'first line\nsecond line é' },
  { event: null, data: 'no-space' },
  { event: null, data: '' },
];

describe('SseReader', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`${name} line endings, split at every byte and byte by byte`, () => {
      const bytes = Buffer.from(STREAM.join(eol) + eol);
      expect(read(bytes)).toEqual(EXPECTED);
      for (let i = 0; i <= bytes.length; i++) expect(read(bytes, [i]), `split at ${i}`).toEqual(EXPECTED);
      expect(read(bytes, Array.from({ length: bytes.length }, (_, i) => i))).toEqual(EXPECTED);
    });
  }

  it('a last event without its blank line (or without a final newline) is flushed by end()', () => {
    expect(read(Buffer.from('data: tail'))).toEqual([{ event: null, data: 'tail' }]);
    expect(read(Buffer.from('data: tail\r'))).toEqual([{ event: null, data: 'tail' }]);
  });

  it('nothing is dispatched before its blank line arrives', () => {
    const r = new SseReader();
    expect(r.push(Buffer.from('data: a\n'))).toEqual([]);
    expect(r.push(Buffer.from('\n'))).toEqual([{ event: null, data: 'a' }]);
  });
});
