import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_TOKEN, startTestGateway, type TestGateway } from '../helpers/gateway.js';

const TOKENS = 30_000;

describe('stream backpressure', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        // The simulator answers with exactly this many words when told so by a header.
        const m = c.models.find((x) => x.id === 'gpt-4.1')!;
        // A 1 s idle limit: the 2.5 s client pause below must not count as the upstream going idle.
        m.endpoints = m.endpoints.map((e) => ({ ...e, headers: { 'x-sim-output-tokens': String(TOKENS) }, timeouts: { idleMs: 1000 } }));
      },
    });
  });
  afterAll(async () => t.close());

  it('a client that stops reading pauses the stream; nothing is lost when it reads again', async () => {
    const body = JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'long' }], max_tokens: TOKENS, stream: true });
    const port = Number(new URL(t.url).port);
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let tail = '';
    let done = false;
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      tail = (tail + d.toString('latin1')).slice(-64);
      if (tail.includes('data: [DONE]')) done = true;
    });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await new Promise((r) => setTimeout(r, 150));
    sock.pause(); // stop reading: the kernel buffers fill and the gateway must wait
    await new Promise((r) => setTimeout(r, 2500));
    sock.resume();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stream did not finish: ${Buffer.concat(chunks).length} bytes, ending ${JSON.stringify(tail)}`)), 20_000);
      const check = (): void => {
        if (done) {
          clearTimeout(timer);
          resolve();
        } else setTimeout(check, 50);
      };
      check();
    });
    sock.destroy();
    const text = Buffer.concat(chunks).toString();
    const contentEvents = (text.match(/"content":"/g) ?? []).length;
    expect(contentEvents).toBeGreaterThanOrEqual(TOKENS); // every token arrived
    expect(text).toMatch(/"finish_reason":"(stop|length)"/);
    const metrics = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const line = metrics.split('\n').find((l) => l.startsWith('svc_stream_backpressure_total{'));
    expect(Number(line?.split(' ').pop())).toBeGreaterThan(0); // the pause engaged backpressure
  }, 30_000);
});
