/**
 * The provider simulator: a node:http server standing in for every upstream the gateway calls. It routes a
 * request to a dialect by path suffix (anything before it is the endpoint prefix, so one process can play
 * several deployments), records per-prefix stats, and applies latency and faults before the dialect
 * answers. Faults come from the endpoint config (`configure`, `POST /_sim/config`) or from the request's
 * `x-sim-fault` header, which wins.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin, simError } from './admin.js';
import type { Dialect, SimRequest, SimRoute } from './dialect.js';
import { DIALECTS } from './dialects.js';
import { EndpointTable, normalizePrefix } from './endpoints.js';
import { firstByteDelay, isStatusFault, readControls } from './faults.js';
import { isRecord, parseJson, readBody, sendJson, sleep } from './http.js';
import { warmTokenizer } from './text.js';
import type { SimOptions, Simulator } from './types.js';

export type { EndpointConfig, EndpointStats, SimDefaults, SimOptions, SimStats, Simulator } from './types.js';
export type { FaultKind } from './faults.js';
export { FAULT_KINDS, SIM_HEADERS } from './faults.js';

interface RouteHit {
  dialect: Dialect;
  route: SimRoute;
  prefix: string;
  params: Record<string, string>;
}

function findRoute(method: string, path: string): RouteHit | null {
  for (const dialect of DIALECTS) {
    for (const route of dialect.routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (match) return { dialect, route, prefix: path.slice(0, match.index), params: { ...match.groups } };
    }
  }
  return null;
}

function notFound(method: string, path: string): { status: number; body: unknown } {
  // OpenAI's wording for an unknown route; every provider answers some 404 here.
  const error = { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null };
  return { status: 404, body: { error } };
}

function modelOf(hit: RouteHit, json: unknown): string | undefined {
  if (hit.route.model) return hit.route.model(hit.params, json);
  return isRecord(json) && typeof json.model === 'string' ? json.model : undefined;
}

/**
 * Aborts when the response closes (client gone or finished) or the simulator shuts down. Not
 * AbortSignal.any: every signal it derives stays registered (a WeakRef in a Set) on the long-lived `closing`
 * signal for the process's lifetime, one per request (found by heap-snapshot diff over a sustained run).
 */
function requestSignal(res: ServerResponse, closing: AbortSignal): AbortSignal {
  const controller = new AbortController();
  if (closing.aborted) controller.abort();
  const onClosing = (): void => controller.abort();
  closing.addEventListener('abort', onClosing, { once: true });
  res.once('close', () => {
    closing.removeEventListener('abort', onClosing);
    controller.abort();
  });
  return controller.signal;
}

async function handleProvider(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  table: EndpointTable,
  closing: AbortSignal,
): Promise<void> {
  const method = req.method ?? 'GET';
  const hit = findRoute(method, url.pathname);
  const body = await readBody(req);
  if (!hit) return sendJson(res, notFound(method, url.pathname));
  if (body === null) return sendJson(res, simError(413, 'request body too large'));
  const json = parseJson(body);
  const prefix = normalizePrefix(hit.prefix);
  const recordedBody = json !== undefined ? json : body.length > 0 ? body.toString('utf8') : null;
  table.record(prefix, { path: url.pathname, model: modelOf(hit, json), body: recordedBody, headers: req.headers });
  captureResponse(res, (text) => table.recordResponse(prefix, text));

  const read = readControls(req.headers);
  if (!read.ok) return sendJson(res, simError(400, read.message));
  const { controls } = read;
  const fault = controls.fault ?? table.takeFault(prefix);
  if (fault !== null) table.countFault(prefix, fault);
  if (fault === 'reset') {
    // TCP RST before any response byte, like a connection dropped by the network or a dead host.
    req.socket.resetAndDestroy();
    return;
  }
  if (fault === 'hang') return; // Never answered; the client's timeout or close() ends it.

  const base = table.config(prefix);
  const config = {
    ...base,
    firstByteMs: controls.firstByteMs ?? base.firstByteMs,
    msPerToken: controls.msPerToken ?? base.msPerToken,
  };
  const signal = requestSignal(res, closing);
  if (!(await sleep(firstByteDelay(fault, config.firstByteMs), signal))) return;
  const request: SimRequest = {
    req,
    res,
    prefix,
    params: hit.params,
    body,
    json,
    config,
    controls,
    cut: fault === 'midstream-reset',
    signal,
  };
  if (isStatusFault(fault)) return sendJson(res, hit.dialect.faultError(fault, request));
  await hit.route.handle(request);
}

const CAPTURE_BYTES = 256 * 1024;

/** Copies what a dialect writes (up to CAPTURE_BYTES) and reports it when the response ends. */
function captureResponse(res: ServerResponse, done: (text: string) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown): void => {
    if (size >= CAPTURE_BYTES || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    parts.push(buf);
    size += buf.length;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk);
    done(Buffer.concat(parts).toString('utf8'));
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSimulator(opts: SimOptions = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  const table = new EndpointTable(opts.defaults);
  warmTokenizer();
  const closing = new AbortController();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const work = url.pathname.startsWith('/_sim/')
      ? handleAdmin(req, res, url, table)
      : handleProvider(req, res, url, table, closing.signal);
    work.catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, simError(500, error instanceof Error ? error.message : String(error)));
    });
  });
  const address = await listen(server, opts.port ?? 0, host);
  let closed: Promise<void> | undefined;
  return {
    port: address.port,
    url: `http://${urlHost(host)}:${address.port}`,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // Hanging and streaming requests, and idle keep-alive sockets, would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
    stats: () => table.stats(),
    reset: () => table.reset(),
    configure: (prefix, cfg) => {
      table.configure(prefix, cfg);
    },
  };
}
