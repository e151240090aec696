/**
 * The binary event-stream framing. Fixtures were encoded by the AWS SDK's own codec
 * (@smithy/core/event-streams EventStreamCodec) from the `<scenario>.frames.json` beside them, so the
 * decoder is checked against an independent encoder, at every split, and corruption is caught.
 */
import { describe, expect, it } from 'vitest';
import { crc32, encodeEventMessage, EventStreamDecoder, EventStreamError, type EventMessage } from '../../../../src/providers/bedrock/event-stream.js';
import { fixture, randomCuts } from '../anthropic/canonical.js';

interface Frame {
  headers: Record<string, string>;
  payload: unknown;
}

const SCENARIOS = ['text', 'tool-use', 'reasoning-stop-sequence', 'throttling-midstream'];

function framesOf(name: string): Frame[] {
  return JSON.parse(fixture('bedrock', `${name}.frames.json`).toString('utf8')) as Frame[];
}

function decode(bytes: Buffer, cuts: number[]): EventMessage[] {
  const decoder = new EventStreamDecoder();
  const out: EventMessage[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(at, cut)));
    at = cut;
  }
  expect(decoder.pending).toBe(false);
  return out;
}

const asFrames = (messages: EventMessage[]): Frame[] =>
  messages.map((m) => ({ headers: m.headers as Record<string, string>, payload: JSON.parse(m.payload.toString('utf8')) as unknown }));

describe('crc32', () => {
  it('matches the IEEE check value and known strings', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });
});

describe('EventStreamDecoder on SDK-encoded fixtures', () => {
  it.each(SCENARIOS)('%s: whole, at every split, in random pieces', (name) => {
    const bytes = fixture('bedrock', `${name}.eventstream`);
    const expected = framesOf(name);
    expect(asFrames(decode(bytes, []))).toEqual(expected);
    for (let cut = 0; cut <= bytes.length; cut++) expect(asFrames(decode(bytes, [cut]))).toEqual(expected);
    for (let seed = 1; seed <= 25; seed++) expect(asFrames(decode(bytes, randomCuts(bytes.length, 15, seed)))).toEqual(expected);
  });

  it('our encoder produces the same bytes as the SDK codec', () => {
    for (const name of SCENARIOS) {
      const ours = Buffer.concat(framesOf(name).map((f) => encodeEventMessage(f.headers, JSON.stringify(f.payload))));
      expect(ours.equals(fixture('bedrock', `${name}.eventstream`))).toBe(true);
    }
  });
});

describe('corruption and truncation', () => {
  const bytes = fixture('bedrock', 'text.eventstream');
  const firstLength = bytes.readUInt32BE(0);

  it.each([
    ['a payload byte (message CRC)', firstLength - 10],
    ['the message CRC itself', firstLength - 1],
    ['a header byte', 20],
    ['the total length (prelude CRC)', 3],
    ['the prelude CRC', 9],
  ])('flipping %s is detected', (_what, at) => {
    const bad = Buffer.from(bytes);
    bad[at] = bad[at]! ^ 0x01;
    expect(() => new EventStreamDecoder().push(bad)).toThrow(EventStreamError);
  });

  it('a corrupt second frame fails after the first frame was delivered', () => {
    const bad = Buffer.from(bytes);
    bad[firstLength + 30] = bad[firstLength + 30]! ^ 0xff;
    const decoder = new EventStreamDecoder();
    expect(decoder.push(bad.subarray(0, firstLength))).toHaveLength(1);
    expect(() => decoder.push(bad.subarray(firstLength))).toThrow(/CRC/);
  });

  it('a cut frame stays pending; a length below the minimum is refused', () => {
    const decoder = new EventStreamDecoder();
    decoder.push(bytes.subarray(0, firstLength + 5));
    expect(decoder.pending).toBe(true);
    const tiny = encodeEventMessage({}, '');
    tiny.writeUInt32BE(8, 0);
    tiny.writeUInt32BE(crc32(tiny.subarray(0, 8)), 8);
    expect(() => new EventStreamDecoder().push(tiny)).toThrow(/length/);
  });

  it('decodes every header value type', () => {
    const headers = Buffer.concat([
      Buffer.from([1, 0x61, 0]), // a: true
      Buffer.from([1, 0x62, 1]), // b: false
      Buffer.from([1, 0x63, 2, 0xff]), // c: byte -1
      Buffer.from([1, 0x64, 3, 0x01, 0x00]), // d: short 256
      Buffer.from([1, 0x65, 4, 0, 0, 0x01, 0x00]), // e: int 256
      Buffer.from([1, 0x66, 5, 0, 0, 0, 0, 0, 0, 0, 7]), // f: long 7n
      Buffer.from([1, 0x67, 6, 0, 2, 9, 8]), // g: bytes
      Buffer.from([1, 0x68, 8, 0, 0, 0, 0, 0, 0, 0x03, 0xe8]), // h: timestamp 1000 ms
      Buffer.concat([Buffer.from([1, 0x69, 9]), Buffer.alloc(16, 0xab)]), // i: uuid
    ]);
    const total = 12 + headers.length + 4;
    const msg = Buffer.alloc(total);
    msg.writeUInt32BE(total, 0);
    msg.writeUInt32BE(headers.length, 4);
    msg.writeUInt32BE(crc32(msg.subarray(0, 8)), 8);
    headers.copy(msg, 12);
    msg.writeUInt32BE(crc32(msg.subarray(0, total - 4)), total - 4);
    const [decoded] = new EventStreamDecoder().push(msg);
    expect(decoded?.headers).toEqual({ a: true, b: false, c: -1, d: 256, e: 256, f: 7n, g: Buffer.from([9, 8]), h: new Date(1000), i: 'ab'.repeat(16) });
  });
});
