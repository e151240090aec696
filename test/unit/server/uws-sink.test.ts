import type { HttpResponse } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { UwsSink } from '../../../src/server/uws-sink.js';

/** A uWS response that records what is written (cork runs its callback at once, as uWS does). */
function recorder() {
  const headers: [string, string][] = [];
  let closed = false;
  const res = {
    onAborted: () => res,
    cork: (cb: () => void) => (cb(), res),
    writeStatus: () => res,
    writeHeader: (k: string, v: string) => (headers.push([k, v]), res),
    write: () => true,
    end: (_body?: unknown, closeConnection?: boolean) => ((closed = closeConnection === true), res),
  } as unknown as HttpResponse;
  return { sink: new UwsSink(res), headers, closed: () => closed };
}

describe('UwsSink keep-alive hint', () => {
  it('tells the client how long an idle connection may be reused, well under the server idle timeout of ~10 s', () => {
    for (const send of [
      (s: UwsSink) => s.send(200, { 'content-type': 'application/json' }, '{}'),
      (s: UwsSink) => {
        s.begin(200, { 'content-type': 'text/event-stream' });
        s.end('data: [DONE]\n\n');
      },
    ]) {
      const r = recorder();
      send(r.sink);
      expect(r.headers[0]).toEqual(['keep-alive', 'timeout=5']);
      expect(r.headers.filter(([k]) => k === 'keep-alive')).toHaveLength(1);
    }
  });

  it('does not offer keep-alive on a response that closes the connection (413 and friends)', () => {
    const r = recorder();
    r.sink.sendAndClose(413, { 'content-type': 'application/json' }, '{}');
    expect(r.closed()).toBe(true);
    expect(r.headers.map(([k]) => k)).toEqual(['content-type']);
  });
});
