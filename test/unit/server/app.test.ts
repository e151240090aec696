import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/app.js';

describe('startServer', () => {
  it('calls onRequest once per request as it arrives, bodies and refusals included', async () => {
    let arrivals = 0;
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 16,
      errorHeaders: () => ({}),
      onHandlerError: () => undefined,
      onRequest: () => arrivals++,
      routes: [
        { method: 'GET', pattern: '/ping', handler: (_req, res) => res.send(200, { 'content-type': 'text/plain' }, 'pong') },
        { method: 'POST', pattern: '/echo', handler: (req, res) => res.send(200, { 'content-type': 'text/plain' }, req.body ?? '') },
      ],
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect(await (await fetch(`${base}/ping`)).text()).toBe('pong');
      expect(arrivals).toBe(1);
      expect(await (await fetch(`${base}/echo`, { method: 'POST', body: 'hi' })).text()).toBe('hi');
      expect((await fetch(`${base}/echo`, { method: 'POST', body: 'x'.repeat(64) })).status).toBe(413);
      expect(arrivals).toBe(3);
    } finally {
      server.close();
    }
  });
});
