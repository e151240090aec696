import { describe, expect, it } from 'vitest';
import type { HeaderList, ResponseSink } from '../../../src/server/types.js';
import { UpstreamBody } from '../../../src/upstream/body.js';
import { pumpStream } from '../../../src/pipeline/stream-writer.js';

/** A sink that records every socket write it would make; pumpStream never ends the response itself. */
function recordingSink(): ResponseSink & { writes: string[]; ended: boolean } {
  const sink = {
    writes: [] as string[],
    ended: false,
    aborted: false,
    backpressureEvents: 0,
    onAbort: () => {},
    send: (_s: number, _h: HeaderList, _b: string | Uint8Array) => {},
    begin: () => {},
    write(chunk: string | Uint8Array): boolean {
      sink.writes.push(Buffer.from(chunk).toString());
      return true;
    },
    drained: () => Promise.resolve(),
    end: () => void (sink.ended = true),
    cut: () => void (sink.ended = true),
  };
  return sink;
}

/** An upstream body holding `buffered`, a recording sink, and `pump()`: pumpStream over them, upper-casing each chunk. */
function setup(...buffered: string[]) {
  const body = new UpstreamBody(() => {}, () => {});
  const sink = recordingSink();
  for (const b of buffered) body.push(Buffer.from(b));
  return { body, sink, pump: () => pumpStream(sink, body, 10_000, (chunk) => chunk.toString().toUpperCase()) };
}

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('pumpStream', () => {
  it('writes each chunk as it is read, the last one of an upstream that has already ended included', async () => {
    const { body, sink, pump } = setup('data: a\n\n');
    const pumping = pump();
    await nextTurn();
    expect(sink.writes).toEqual(['DATA: A\n\n']);
    body.push(Buffer.from('data: b\n\n'));
    body.push(Buffer.from('data: [DONE]\n\n'));
    body.end();
    expect(await pumping).toEqual({ outcome: 'ok', error: null });
    expect(sink.writes).toEqual(['DATA: A\n\n', 'DATA: B\n\nDATA: [DONE]\n\n']);
    // The end is the caller's (after the settlement record): pumpStream never ends the response.
    expect(sink.ended).toBe(false);
    expect(body.finished).toBe(true);
  });

  it('a whole stream buffered before its first read is one write, not held for the end', async () => {
    const { body, sink, pump } = setup('data: a\n\ndata: [DONE]\n\n');
    body.end();
    expect(await pump()).toEqual({ outcome: 'ok', error: null });
    expect(sink.writes).toEqual(['DATA: A\n\nDATA: [DONE]\n\n']);
    expect(sink.ended).toBe(false);
  });

  it('a failed upstream is an error outcome with nothing owed', async () => {
    const { body, pump } = setup('data: a\n\n');
    const pumping = pump();
    await nextTurn();
    body.fail(new Error('socket hang up'));
    const pumped = await pumping;
    expect(pumped.outcome).toBe('error');
    expect((pumped.error as Error).message).toBe('socket hang up');
    expect(body.finished).toBe(false);
  });
});
