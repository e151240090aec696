import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp } from 'uWebSockets.js';
import { GatewayError } from '../errors/gateway-error.js';
import { errorBodyFor } from '../formats/error-body.js';
import { readBody } from './read-body.js';
import { StartupError } from './startup.js';
import type { Handler, HeaderList, IncomingRequest } from './types.js';
import { UwsSink } from './uws-sink.js';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';
  /** uWS pattern; `/*` suffix matches ids containing `/`. */
  pattern: string;
  handler: Handler;
}

export interface ServerOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  routes: Route[];
  /** Headers every error response of the server layer carries (request id is added by the caller). */
  errorHeaders: () => HeaderList;
  /** Called for errors the handler did not answer. */
  onHandlerError: (err: unknown, req: IncomingRequest, res: UwsSink) => void;
}

export interface RunningServer {
  port: number;
  /** Stops accepting connections; requests in flight go on. */
  close(): void;
  /** Resolves once no handler is running (or after `timeoutMs`); true when drained. */
  drain(timeoutMs: number): Promise<boolean>;
}

const decoder = new TextDecoder();

/**
 * The uWS fork loads `binaries/uws_<platform>_<arch>_<abi>.node` and, when that fails (a Node other than
 * 16/18/20, or UWS_USE_FALLBACK set), silently returns its pure-JS server on an old `ws`. That server is
 * not the product: refuse to start on it. The fallback is the module's `dist/index.js`, so the loaded
 * module is compared with that file's exports in the require cache.
 */
export function assertNativeUws(): void {
  const require = createRequire(import.meta.url);
  const fallback = require.cache[require.resolve('uWebSockets.js/dist/index.js')];
  if (fallback?.exports !== uWS) return;
  const why = process.env.UWS_USE_FALLBACK
    ? `UWS_USE_FALLBACK=${process.env.UWS_USE_FALLBACK} is set; unset it`
    : `it ships bindings for Node 16, 18 and 20 only; run the gateway with Node 20 (see engines in package.json)`;
  throw new StartupError(
    `uWebSockets.js did not load its native binding for Node ${process.version} (${process.platform}-${process.arch}, ABI ` +
      `${process.versions.modules}) and fell back to a slow pure-JS server; refusing to start: ${why}.`,
  );
}

function remoteIp(res: HttpResponse): string {
  const ip = decoder.decode(res.getRemoteAddressAsText());
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function capture(req: HttpRequest, res: HttpResponse, method: string): Omit<IncomingRequest, 'body'> {
  const headers = new Map<string, string>();
  req.forEach((k, v) => headers.set(k, v));
  return {
    method,
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    ip: remoteIp(res),
    startedAt: performance.now(),
  };
}

function errorJson(err: GatewayError, path: string): string {
  return errorBodyFor(path, err);
}

/** Builds and starts one uWS listener. Only this module and uws-sink.ts import uWebSockets.js. */
export function startServer(opts: ServerOptions): Promise<RunningServer> {
  assertNativeUws();
  const app: TemplatedApp = uWS.App();

  let inflight = 0;
  let idle: (() => void)[] = [];
  const settled = (): void => {
    if (--inflight === 0) {
      for (const w of idle) w();
      idle = [];
    }
  };
  const dispatch = (route: Route, sink: UwsSink, incoming: IncomingRequest): void => {
    inflight++;
    try {
      const p = route.handler(incoming, sink);
      if (p) p.catch((err: unknown) => opts.onHandlerError(err, incoming, sink)).finally(settled);
      else settled();
    } catch (err) {
      opts.onHandlerError(err, incoming, sink);
      settled();
    }
  };

  for (const route of opts.routes) {
    const verbs = { GET: app.get, POST: app.post, DELETE: app.del, PATCH: app.patch, PUT: app.put } as const;
    const register = verbs[route.method].bind(app);
    const method = route.method;
    register(route.pattern, (res, req) => {
      const sink = new UwsSink(res);
      const head = capture(req, res, method);
      if (method === 'GET' || method === 'DELETE') {
        dispatch(route, sink, { ...head, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(head.headers.get('content-length') ?? '0');
      const tooLarge = (): void => {
        const err = new GatewayError('payload_too_large', {
          message: `Request body exceeds the ${opts.maxBodyBytes}-byte limit.`,
        });
        sink.sendAndClose(413, { ...opts.errorHeaders(), 'content-type': 'application/json' }, errorJson(err, head.path));
      };
      if (declared > opts.maxBodyBytes) {
        tooLarge();
        return;
      }
      readBody(res, opts.maxBodyBytes, (body) => dispatch(route, sink, { ...head, body }), tooLarge);
    });
  }

  app.any('/*', (res, req) => {
    const sink = new UwsSink(res);
    const path = req.getUrl();
    const err = new GatewayError('not_found', { message: `No route for ${req.getMethod().toUpperCase()} ${path}` });
    sink.sendAndClose(404, { ...opts.errorHeaders(), 'x-svc-latency-ms': '0', 'content-type': 'application/json' }, errorJson(err, path));
  });

  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (token) => {
      if (!token) {
        reject(new Error(`cannot listen on ${opts.host}:${opts.port}`));
        return;
      }
      resolve({
        port: uWS.us_socket_local_port(token),
        close: () => uWS.us_listen_socket_close(token),
        drain: (timeoutMs) =>
          inflight === 0
            ? Promise.resolve(true)
            : new Promise((done) => {
                const timer = setTimeout(() => done(false), timeoutMs);
                idle.push(() => {
                  clearTimeout(timer);
                  done(true);
                });
              }),
      });
    });
  });
}
