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

describe('UwsSink.cut on a real connection', () => {
  it('closes a begun stream without its end: the client reads the bytes sent, then a transport error', async () => {
    const uWS = (await import('uWebSockets.js')).default;
    const { request } = await import('undici');
    const app = uWS.App();
    let cutAborted = false;
    app.get('/*', (res) => {
      const sink = new UwsSink(res);
      sink.onAbort(() => (cutAborted = true));
      sink.begin(200, { 'content-type': 'text/event-stream' });
      sink.write('data: {"delta":"hi"}\n\n');
      setTimeout(() => {
        sink.cut();
        sink.end('data: [DONE]\n\n'); // after cut: nothing more leaves
      }, 20);
    });
    const { port, close } = await new Promise<{ port: number; close: () => void }>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (token) => {
        if (!token) reject(new Error('listen failed'));
        else resolve({ port: uWS.us_socket_local_port(token), close: () => uWS.us_listen_socket_close(token) });
      }),
    );
    try {
      const res = await request(`http://127.0.0.1:${port}/`);
      expect(res.statusCode).toBe(200);
      const seen: string[] = [];
      await expect(
        (async () => {
          for await (const chunk of res.body) seen.push(Buffer.from(chunk as Uint8Array).toString());
        })(),
      ).rejects.toThrow();
      expect(seen.join('')).toBe('data: {"delta":"hi"}\n\n');
      expect(cutAborted).toBe(true);
    } finally {
      close();
    }
  });
});
