/**
 * A local HTTPS receiver for delivery tests, served with a certificate from a throwaway CA made by
 * the openssl CLI. The CA is trusted only by guards that are handed `ca` explicitly; nothing touches
 * NODE_TLS_REJECT_UNAUTHORIZED or the process-wide store.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RECEIVER_HOST = 'hooks.test.example';

export interface TestPki {
  ca: string;
  key: string;
  cert: string;
}

/** CA + leaf for `names` (subjectAltName DNS entries), EC P-256 to keep generation fast. */
export function makeTestPki(names: readonly string[]): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'svc-events-pki-'));
  const p = (f: string): string => join(dir, f);
  const ossl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'pipe' });
  };
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ossl('req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.crt'), '-days', '1', '-subj', '/CN=svc events test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    ossl('req', ...ec, '-keyout', p('leaf.key'), '-out', p('leaf.csr'), '-subj', `/CN=${names[0] ?? RECEIVER_HOST}`);
    writeFileSync(p('leaf.ext'), [
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      'basicConstraints=CA:FALSE',
      'extendedKeyUsage=serverAuth',
      '',
    ].join('\n'));
    ossl('x509', '-req', '-in', p('leaf.csr'), '-CA', p('ca.crt'), '-CAkey', p('ca.key'), '-CAcreateserial',
      '-out', p('leaf.crt'), '-days', '1', '-extfile', p('leaf.ext'));
    return { ca: readFileSync(p('ca.crt'), 'utf8'), key: readFileSync(p('leaf.key'), 'utf8'), cert: readFileSync(p('leaf.crt'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body exactly as it arrived on the socket. */
  raw: Buffer;
}

export type Route = (req: Received, res: ServerResponse) => void;

export interface Receiver {
  port: number;
  hits: Received[];
  /** Hits for one path. */
  at(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(pki: TestPki, routes: Record<string, Route>): Promise<Receiver> {
  const hits: Received[] = [];
  const server: Server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
      hits.push(got);
      const route = routes[got.path.split('?')[0] ?? ''];
      if (route === undefined) {
        res.writeHead(404).end();
        return;
      }
      route(got, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('receiver did not bind a TCP port');
  return {
    port: addr.port,
    hits,
    at: (path) => hits.filter((h) => h.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening: bind, note the port, release it. */
export async function closedPort(): Promise<number> {
  const srv = createTcpServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return addr.port;
}
