import uWS from 'uWebSockets.js';
import { request } from 'undici';
const lag = [];
const app = uWS.App().post('/*', (res, req) => {
  res.onAborted(() => {});
  res.onData((chunk, last) => {
    if (!last) return;
    const t0 = process.hrtime.bigint();
    Promise.resolve().then(() => {
      lag.push(Number(process.hrtime.bigint() - t0) / 1000);
      res.cork(() => res.end('ok'));
    });
  });
}).listen(0, (s) => {
  const port = uWS.us_socket_local_port(s);
  (async () => {
    for (let i = 0; i < 300; i++) {
      await (await request(`http://127.0.0.1:${port}/x`, { method: 'POST', body: 'hello' })).body.text();
      await new Promise(r => setTimeout(r, 2));
    }
    lag.sort((a, b) => a - b);
    console.log('microtask lag us p50', lag[150].toFixed(1), 'p90', lag[270].toFixed(1), 'max', lag[299].toFixed(1));
    process.exit(0);
  })();
});
