import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import type { UpstreamTimeouts } from '../config/schema.js';
import { CallAbort } from './call-abort.js';

/** One keep-alive connection pool per origin, shared by every request (undici Agent). */
export function createUpstreamAgent(t: UpstreamTimeouts): Agent {
  return new Agent({
    connect: { timeout: t.connectMs },
    headersTimeout: t.firstByteMs,
    bodyTimeout: t.idleMs,
    keepAliveTimeout: 30_000,
    connections: 256,
    pipelining: 1,
  });
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
  /** The client's side: fires when the client went away. */
  signal: CallAbort;
  timeouts: UpstreamTimeouts;
}

export type UpstreamFailure =
  /** Nothing reached the provider or it never answered with headers (connect refused/reset/timeout). */
  | { kind: 'connect'; message: string }
  /** No headers within firstByteMs. */
  | { kind: 'timeout'; message: string }
  /** The client went away; the call was aborted. */
  | { kind: 'aborted'; message: string };

export type UpstreamResult =
  | { ok: true; response: Dispatcher.ResponseData }
  | { ok: false; failure: UpstreamFailure };

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function errCode(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  return String(err.code ?? err.cause?.code ?? '');
}

/** Origin and path of each upstream URL, parsed once (an endpoint's URL is the same on every request). */
const targets = new Map<string, { origin: string; path: string }>();
const MAX_TARGETS = 1024;

function targetOf(href: string): { origin: string; path: string } {
  let t = targets.get(href);
  if (t === undefined) {
    const url = new URL(href);
    t = { origin: url.origin, path: url.pathname + url.search };
    // URLs can carry per-request parts (a model name in the path): bound the table, never grow without end.
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(href, t);
  }
  return t;
}

/** Sends one request and waits for the response head. Never throws for network failures. */
export async function sendUpstream(agent: Agent, req: UpstreamRequest): Promise<UpstreamResult> {
  // One abort for the client's and the deadlines; the timers are cleared when the body closes
  // (AbortSignal.timeout/any would leave a live timer and a DOMException behind per request).
  const ac = new CallAbort();
  const total = { aborted: false };
  const onClientAbort = (): void => ac.abort(req.signal.reason);
  if (req.signal.aborted) onClientAbort();
  else req.signal.once('abort', onClientAbort);
  const timer = setTimeout(() => {
    total.aborted = true;
    ac.abort(new Error('upstream total timeout'));
  }, req.timeouts.totalMs);
  // undici's own headersTimeout runs on a coarse (about 1 s) clock; this one is exact. undici's stays set as
  // a backstop.
  const firstByte = setTimeout(() => {
    total.aborted = true;
    ac.abort(new Error('upstream first-byte timeout'));
  }, req.timeouts.firstByteMs);
  const cleanup = (): void => {
    clearTimeout(timer);
    clearTimeout(firstByte);
    req.signal.off('abort', onClientAbort);
  };
  const signal = ac;
  const { origin, path } = targetOf(req.url);
  try {
    const response = await agent.request({
      origin,
      path,
      method: 'POST',
      headers: req.headers,
      body: req.body,
      signal,
      headersTimeout: req.timeouts.firstByteMs,
      bodyTimeout: req.timeouts.idleMs,
    });
    clearTimeout(firstByte);
    response.body.once('close', cleanup);
    return { ok: true, response };
  } catch (e) {
    cleanup();
    if (req.signal.aborted) return { ok: false, failure: { kind: 'aborted', message: 'client disconnected' } };
    if (e instanceof undiciErrors.HeadersTimeoutError || total.aborted) {
      return { ok: false, failure: { kind: 'timeout', message: 'upstream did not answer in time' } };
    }
    const code = errCode(e);
    if (CONNECT_CODES.has(code) || e instanceof undiciErrors.SocketError) {
      return { ok: false, failure: { kind: 'connect', message: `connect-phase failure (${code || 'socket'})` } };
    }
    return { ok: false, failure: { kind: 'connect', message: `upstream request failed: ${(e as Error).message}` } };
  }
}

/** Reads a whole upstream body with a size cap (defends against a runaway upstream). */
export function readAll(body: Dispatcher.ResponseData['body'], cap = 64 * 1024 * 1024): Promise<Buffer> {
  // Stream events, not `for await`: the async iterator costs a generator, a promise per chunk and its own
  // listeners per body (about 1% of the event loop's CPU in the load bench for one- or two-chunk bodies).
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > cap) {
        done();
        body.destroy();
        reject(new Error('upstream body exceeds cap'));
        return;
      }
      parts.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    // A body destroyed without an error (an abort) closes without 'end': that is a failure too.
    const onClose = (): void => {
      done();
      reject(new Error('upstream body closed before its end'));
    };
    const done = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
  });
}
