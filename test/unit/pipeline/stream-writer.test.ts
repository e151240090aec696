import { describe, expect, it } from 'vitest';
import type { HeaderList, ResponseSink } from '../../../src/server/types.js';
import { UpstreamBody } from '../../../src/upstream/body.js';
import { pumpStream } from '../../../src/pipeline/stream-writer.js';

/** A sink that records every socket write it would make (each write() and the end, in order). */
function recordingSink(): ResponseSink & { writes: string[]; ended: string[] | null } {
  const sink = {
    writes: [] as string[],
    ended: null as string[] | null,
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
    end(...chunks: (string | Uint8Array)[]): void {
      sink.ended = chunks.map((c) => Buffer.from(c).toString());
    },
  };
  return sink;
}

const upper = (chunk: Buffer): string => chunk.toString().toUpperCase();

describe('pumpStream', () => {
  it('writes each chunk read while the upstream is open, and hands back the last one when the upstream had already ended', async () => {
    const body = new UpstreamBody(() => {}, () => {});
    const sink = recordingSink();
    body.push(Buffer.from('data: a\n\n'));
    const pumping = pumpStream(sink, body, 10_000, upper);
    await new Promise((r) => setImmediate(r));
    expect(sink.writes).toEqual(['DATA: A\n\n']);
    // The rest arrives together with the end: the caller sends it with the end of the response (one write).
    body.push(Buffer.from('data: b\n\n'));
    body.push(Buffer.from('data: [DONE]\n\n'));
    body.end();
    const pumped = await pumping;
    expect(pumped).toEqual({ outcome: 'ok', error: null, last: 'DATA: B\n\nDATA: [DONE]\n\n' });
    expect(sink.writes).toEqual(['DATA: A\n\n']);
    expect(body.finished).toBe(true);
  });

  it('a whole stream buffered before its first read is one last chunk and no write', async () => {
    const body = new UpstreamBody(() => {}, () => {});
    const sink = recordingSink();
    body.push(Buffer.from('data: a\n\ndata: [DONE]\n\n'));
    body.end();
    const pumped = await pumpStream(sink, body, 10_000, upper);
    expect(pumped.last).toBe('DATA: A\n\nDATA: [DONE]\n\n');
    expect(sink.writes).toEqual([]);
  });

  it('an upstream that ends after its last chunk was written leaves nothing owed', async () => {
    const body = new UpstreamBody(() => {}, () => {});
    const sink = recordingSink();
    const pumping = pumpStream(sink, body, 10_000, upper);
    body.push(Buffer.from('data: a\n\n'));
    await new Promise((r) => setImmediate(r));
    body.end();
    expect(await pumping).toEqual({ outcome: 'ok', error: null, last: '' });
    expect(sink.writes).toEqual(['DATA: A\n\n']);
  });

  it('a failed upstream is an error outcome with nothing owed', async () => {
    const body = new UpstreamBody(() => {}, () => {});
    const sink = recordingSink();
    body.push(Buffer.from('data: a\n\n'));
    const pumping = pumpStream(sink, body, 10_000, upper);
    await new Promise((r) => setImmediate(r));
    body.fail(new Error('socket hang up'));
    const pumped = await pumping;
    expect(pumped.outcome).toBe('error');
    expect((pumped.error as Error).message).toBe('socket hang up');
    expect(pumped.last).toBe('');
    expect(body.finished).toBe(false);
  });
});
