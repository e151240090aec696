import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import type { UpstreamTimeouts } from '../config/schema.js';
import { UpstreamBody } from './body.js';
import type { CallAbort } from './call-abort.js';

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

/** A provider's answer: its status and its body (read whole or streamed; see body.ts). */
export interface UpstreamResponse {
  statusCode: number;
  body: UpstreamBody;
}

export type UpstreamResult =
  | { ok: true; response: UpstreamResponse }
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

/**
 * undici's dispatch callbacks for one call: resolves with the response head (a body fed by the later callbacks)
 * or rejects with what failed before it. See body.ts for why this is not `agent.request()`.
 */
class CallHandler implements Dispatcher.DispatchHandler {
  #abort: ((reason: Error) => void) | null = null;
  #pending: Error | null = null;
  #body: UpstreamBody | null = null;

  constructor(
    private readonly resolve: (r: UpstreamResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  /** Aborts the call, whatever its phase (before the connection, while waiting for the head, while reading). */
  cancel(reason: Error): void {
    if (this.#body !== null) this.#body.destroy(reason);
    else if (this.#abort !== null) this.#abort(reason);
    else this.#pending ??= reason;
  }

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
    if (this.#pending !== null) abort(this.#pending);
  }

  onHeaders(statusCode: number, _headers: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the answer follows
    const abort = this.#abort ?? (() => {});
    const body = new UpstreamBody(abort, resume);
    this.#body = body;
    this.resolve({ statusCode, body });
    return true;
  }

  onData(chunk: Buffer): boolean {
    return this.#body === null ? true : this.#body.push(chunk);
  }

  onComplete(): void {
    this.#body?.end();
  }

  onError(err: Error): void {
    // Before the head the call failed (a second rejection of the same promise would be a no-op); after it, the body.
    if (this.#body !== null) this.#body.fail(err);
    else this.reject(err);
  }
}

/** Sends one request and waits for the response head. Never throws for network failures. */
export async function sendUpstream(agent: Agent, req: UpstreamRequest): Promise<UpstreamResult> {
  // One cancel for the client's abort and the deadlines; the timers are cleared when the body closes.
  const total = { aborted: false };
  let handler!: CallHandler;
  const head = new Promise<UpstreamResponse>((resolve, reject) => (handler = new CallHandler(resolve, reject)));
  const onClientAbort = (): void => handler.cancel(req.signal.reason instanceof Error ? req.signal.reason : new Error('client disconnected'));
  if (req.signal.aborted) onClientAbort();
  else req.signal.once('abort', onClientAbort);
  const timer = setTimeout(() => {
    total.aborted = true;
    handler.cancel(new Error('upstream total timeout'));
  }, req.timeouts.totalMs);
  // undici's own headersTimeout runs on a coarse (about 1 s) clock; this one is exact. undici's stays set as
  // a backstop.
  const firstByte = setTimeout(() => {
    total.aborted = true;
    handler.cancel(new Error('upstream first-byte timeout'));
  }, req.timeouts.firstByteMs);
  const cleanup = (): void => {
    clearTimeout(timer);
    clearTimeout(firstByte);
    req.signal.off('abort', onClientAbort);
  };
  const { origin, path } = targetOf(req.url);
  try {
    agent.dispatch(
      {
        origin,
        path,
        method: 'POST',
        headers: req.headers,
        body: req.body,
        headersTimeout: req.timeouts.firstByteMs,
        bodyTimeout: req.timeouts.idleMs,
      },
      handler,
    );
    const response = await head;
    clearTimeout(firstByte);
    response.body.onClose(cleanup);
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
