import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp } from 'uWebSockets.js';
import { GatewayError } from '../errors/gateway-error.js';
import { errorBodyFor } from '../formats/error-body.js';
import { readBody } from './read-body.js';
import { StartupError } from './startup.js';
import type { Gate, Handler, HeaderList, IncomingRequest } from './types.js';
import { UwsSink } from './uws-sink.js';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';
  /** uWS pattern; `/*` suffix matches ids containing `/`. */
  pattern: string;
  handler: Handler;
  /** Body cap of this route; the server's `maxBodyBytes` when absent. */
  maxBodyBytes?: number;
  /** For routes with a body: checked before the body is read; its handler replaces `handler`. */
  gate?: Gate;
}

export interface ServerOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  routes: Route[];
  /** Headers every error response of the server layer carries (request id is added by the caller); a fresh object per call. */
  errorHeaders: () => HeaderList;
  /** Called for errors the handler did not answer. */
  onHandlerError: (err: unknown, req: IncomingRequest, res: UwsSink) => void;
  /** Called as each request arrives (before its body is read). */
  onRequest?: () => void;
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

/**
 * The request the pipeline sees. The client address is read on first use: uWS asks the kernel for it
 * (getpeername(2)) on every call, and most requests never need it (the auth throttle, a key's IP allow list and
 * dashboard logins read it). It can be read while the response is open; afterwards the socket may be gone, so a
 * first read then answers '' (unknown).
 */
export class UwsRequest implements IncomingRequest {
  #ip: string | null = null;
  body: Buffer = EMPTY;
  readonly startedAt = performance.now();

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly headers: ReadonlyMap<string, string>,
    private readonly res: HttpResponse,
    private readonly sink: UwsSink,
  ) {}

  get ip(): string {
    if (this.#ip === null) {
      if (this.sink.open) {
        const ip = decoder.decode(this.res.getRemoteAddressAsText());
        this.#ip = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
      } else this.#ip = '';
    }
    return this.#ip;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Headers that must come once: a second credential (or length, type, host) is ambiguous, since one reader
 * could take the first and another the last (security hardening, finding 6). RFC 9110 5.3 allows repeats
 * only of list-valued fields.
 */
const SINGLE_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'content-length', 'content-type', 'host', 'origin']);

function capture(req: HttpRequest, res: HttpResponse, sink: UwsSink, method: string): { incoming: UwsRequest; repeated: string | null } {
  const headers = new Map<string, string>();
  let repeated: string | null = null;
  req.forEach((k, v) => {
    if (repeated === null && headers.has(k) && SINGLE_HEADERS.has(k)) repeated = k;
    headers.set(k, v);
  });
  return { repeated, incoming: new UwsRequest(method, req.getUrl(), req.getQuery() ?? '', headers, res, sink) };
}

/** The server layer's error headers and a JSON content type (added to the fresh object, not spread: see sendError). */
function jsonErrorHeaders(opts: Pick<ServerOptions, 'errorHeaders'>, latencyMs?: string): HeaderList {
  const h = opts.errorHeaders();
  if (latencyMs !== undefined) h['x-svc-latency-ms'] = latencyMs;
  h['content-type'] = 'application/json';
  return h;
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

  const arrived = opts.onRequest ?? ((): void => undefined);
  for (const route of opts.routes) {
    const verbs = { GET: app.get, POST: app.post, DELETE: app.del, PATCH: app.patch, PUT: app.put } as const;
    const register = verbs[route.method].bind(app);
    const method = route.method;
    register(route.pattern, (res, req) => {
      arrived();
      const sink = new UwsSink(res);
      const { repeated, incoming: head } = capture(req, res, sink, method);
      if (repeated !== null) {
        const err = new GatewayError('invalid_request', { message: `The ${repeated} header appears more than once; send it once.` });
        sink.sendAndClose(400, jsonErrorHeaders(opts), errorJson(err, head.path));
        return;
      }
      if (method === 'GET' || method === 'DELETE') {
        dispatch(route, sink, head);
        return;
      }
      const declared = Number(head.headers.get('content-length') ?? '0');
      const cap = route.maxBodyBytes ?? opts.maxBodyBytes;
      const tooLarge = (): void => {
        const err = new GatewayError('payload_too_large', {
          message: `Request body exceeds the ${cap}-byte limit.`,
        });
        sink.sendAndClose(413, jsonErrorHeaders(opts), errorJson(err, head.path));
      };
      if (declared > cap) {
        tooLarge();
        return;
      }
      if (route.gate === undefined) {
        readBody(
          res,
          cap,
          (body) => {
            head.body = body;
            dispatch(route, sink, head);
          },
          tooLarge,
        );
        return;
      }
      gated(route.gate, res, sink, head, cap, tooLarge);
    });
  }

  /** Holds the body back (socket paused) until the gate passes; a refusal is answered without reading it. */
  const gated = (gate: Gate, res: HttpResponse, sink: UwsSink, head: UwsRequest, cap: number, tooLarge: () => void): void => {
    let read = false;
    let handler: Handler | null = null;
    const go = (): void => {
      if (read && handler !== null) dispatch({ method: 'POST', pattern: '', handler }, sink, head);
    };
    let over = false;
    readBody(
      res,
      cap,
      (b) => {
        head.body = b;
        read = true;
        go();
      },
      () => ((over = true), tooLarge()),
    );
    res.pause();
    inflight++;
    gate(head)
      .then((next) => {
        if (sink.aborted || over) return;
        if (typeof next === 'function') {
          handler = next;
          res.resume();
          go();
        } else sink.sendAndClose(next.status, next.headers, next.body);
      })
      .catch((err: unknown) => opts.onHandlerError(err, head, sink))
      .finally(settled);
  };

  app.any('/*', (res, req) => {
    const sink = new UwsSink(res);
    const path = req.getUrl();
    const err = new GatewayError('not_found', { message: `No route for ${req.getMethod().toUpperCase()} ${path}` });
    sink.sendAndClose(404, jsonErrorHeaders(opts, '0'), errorJson(err, path));
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
