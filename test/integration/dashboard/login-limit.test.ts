import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { awayFromMinuteEdge, ORIGIN, PASSWORD, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** A sign-in from a given loopback source address (raw HTTP/1.1: undici ignores localAddress here). */
function login(email: string, password: string, localAddress: string): Promise<number> {
  const body = JSON.stringify({ email, password });
  const url = new URL(h.base);
  return new Promise((resolve, reject) => {
    const sock = connect({ host: url.hostname, port: Number(url.port), localAddress }, () => {
      sock.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    let head = '';
    sock.on('data', (d: Buffer) => (head += d.toString()));
    sock.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    sock.on('error', reject);
  });
}

it('failed sign-ins from one address cannot lock the user out from another', async () => {
  await awayFromMinuteEdge(10_000);
  const o = await h.org(['owner']);
  const email = o.users.owner!.email;
  for (let i = 0; i < 10; i++) expect(await login(email, 'wrong password', '127.0.0.2')).toBe(401);
  expect(await login(email, 'wrong password', '127.0.0.2')).toBe(429); // the attacker's address is limited
  expect(await login(email, PASSWORD, '127.0.0.1')).toBe(200); // the user is not
});
