/**
 * The reference for the sustained bench: a bare Node http server that forwards each request to the same
 * mock upstream through an undici Pool and streams the answer back. No auth, no limits, no accounting: the
 * floor a gateway written in Node can hope for. `node dist/bench/load/proxy.js <port> <upstream origin>`.
 */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

const [portArg, upstream] = process.argv.slice(2);
if (!portArg || !upstream) {
  process.stderr.write('usage: proxy.js <port> <upstream origin>\n');
  process.exit(2);
}
const pool = new Pool(upstream, { connections: 256, keepAliveTimeout: 60_000 });

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    pool
      .request({
        path: req.url ?? '/',
        method: req.method === 'GET' ? 'GET' : 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: req.method === 'GET' ? null : Buffer.concat(chunks),
      })
      .then(async (up) => {
        const type = up.headers['content-type'];
        res.writeHead(up.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
        await pipeline(up.body, res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
  });
}).listen(Number(portArg), '127.0.0.1', () => process.stderr.write(`proxy on ${portArg} -> ${upstream}\n`));
