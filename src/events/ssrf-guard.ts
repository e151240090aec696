/**
 * The one SSRF guard for every outbound URL built from user input (webhook subscriptions and
 * notification channels). Contract: gateway-api.md, Events > Endpoint requirements 1-5, and the
 * notification channel rule "any URL in a config must be a public HTTPS endpoint".
 *
 * Two phases:
 * - `checkUrlSyntax` at registration and again before each send: scheme, length, credentials,
 *   forbidden names and forbidden IP literals (the WHATWG parser has already normalised decimal,
 *   octal, hex and short IPv4 forms to dotted-quad, so one range check covers them all).
 * - `resolveAndCheck` at send time: every A/AAAA answer must be public; the request then connects
 *   to that checked address (see `createGuardedDispatcher`), so a second DNS answer can never be
 *   swapped in between check and connect (DNS rebinding).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { addressFamily, addressKey, bareAddress, isForbiddenAddress } from './ip-address.js';

export { isForbiddenAddress } from './ip-address.js';

export const MAX_URL_LENGTH = 2048;

/** Name suffixes that only make sense inside a private network (`.cluster.local` falls under `.local`). */
const FORBIDDEN_SUFFIXES = ['.local', '.internal', '.localhost'] as const;

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Injectable DNS: must return every A and AAAA answer for `host`. */
export interface Resolver {
  lookup(host: string): Promise<ResolvedAddress[]>;
}

export const systemResolver: Resolver = {
  lookup: (host) => dnsLookup(host, { all: true, verbatim: true }),
};

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** An address that passed the guard, bound to the URL host it was resolved for. */
export interface CheckedTarget {
  /** `URL.hostname` as parsed (IPv6 literals keep their brackets). */
  hostname: string;
  address: string;
  family: 4 | 6;
}

export type AddressCheck = ({ ok: true } & CheckedTarget) | { ok: false; reason: string };

interface AllowList {
  readonly allow?: ReadonlySet<string>;
}

function permitted(ip: string, { allow }: AllowList): boolean {
  if (!isForbiddenAddress(ip)) return true;
  const key = addressKey(ip);
  return key !== null && allow !== undefined && allow.has(key);
}

// Control characters and spaces are silently stripped or rejected differently by different URL
// parsers; a backslash is read as "/" by WHATWG but not by every receiver. Refuse them outright.
function hasAmbiguousChars(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x5c) return true;
  }
  return false;
}

function checkSyntax(raw: string, allowList: AllowList): UrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'url is required' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `url exceeds ${MAX_URL_LENGTH} characters` };
  if (hasAmbiguousChars(raw)) return { ok: false, reason: 'url contains whitespace, control characters or a backslash' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'url must not contain credentials' };
  const host = url.hostname;
  if (addressFamily(host) !== 0) {
    return permitted(host, allowList) ? { ok: true, url } : { ok: false, reason: `host ${host} is a non-public address` };
  }
  const name = host.replace(/\.+$/, '');
  if (name === '') return { ok: false, reason: 'url host is empty' };
  if (name === 'localhost' || FORBIDDEN_SUFFIXES.some((s) => name.endsWith(s))) {
    return { ok: false, reason: `host ${host} is a private name` };
  }
  return { ok: true, url };
}

/** Registration-time check with no allow-list (tests' loopback escape never applies here). */
export function checkUrlSyntax(raw: string): UrlCheck {
  return checkSyntax(raw, {});
}

function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function resolveChecked(url: URL, resolver: Resolver, allowList: AllowList, signal?: AbortSignal): Promise<AddressCheck> {
  const hostname = url.hostname;
  const literal = addressFamily(hostname);
  if (literal !== 0) {
    // An IP literal is connected to as written; no resolution, so no rebinding window.
    if (!permitted(hostname, allowList)) return { ok: false, reason: `host ${hostname} is a non-public address` };
    return { ok: true, hostname, address: bareAddress(hostname), family: literal };
  }
  let answers: ResolvedAddress[];
  try {
    answers = await raceSignal(resolver.lookup(hostname.replace(/\.+$/, '')), signal);
  } catch (e) {
    if (signal?.aborted === true) throw e;
    const code = e instanceof Error && 'code' in e ? String(e.code) : 'error';
    return { ok: false, reason: `dns lookup of ${hostname} failed (${code})` };
  }
  if (answers.length === 0) return { ok: false, reason: `dns lookup of ${hostname} returned no address` };
  // Every answer must be public: a client may pick any of them, and a mixed answer is itself a red flag.
  const bad = answers.find((a) => !permitted(a.address, allowList));
  if (bad !== undefined) return { ok: false, reason: `host ${hostname} resolves to non-public address ${bad.address}` };
  const first = answers[0];
  const family = first === undefined ? 0 : addressFamily(first.address);
  if (first === undefined || family === 0) return { ok: false, reason: `dns lookup of ${hostname} returned an unreadable address` };
  return { ok: true, hostname, address: bareAddress(first.address), family };
}

/** Send-time check: resolve every address of the host; refuse if any is non-public. */
export function resolveAndCheck(url: URL, resolver: Resolver = systemResolver): Promise<AddressCheck> {
  return resolveChecked(url, resolver, {});
}

export interface DispatcherOptions {
  /** Extra trusted CA certificates (PEM). Tests pass their throwaway CA here. */
  ca?: string | Buffer;
  /** Bounds connect, header and body waits; the request's AbortSignal bounds the total. */
  timeoutMs?: number;
}

/**
 * An undici Agent whose every connection goes to `target.address`. The URL (and so the Host header,
 * SNI and certificate name check, which undici derives from the URL host) is left untouched; only the
 * socket's destination is pinned. A connection for any other host name is refused.
 */
export function createGuardedDispatcher(target: CheckedTarget, opts: DispatcherOptions = {}): Agent {
  const timeout = opts.timeoutMs ?? 10_000;
  const base = buildConnector({ timeout, ...(opts.ca === undefined ? {} : { ca: opts.ca }) });
  const connect: buildConnector.connector = (connectOpts, callback) => {
    if (bareAddress(connectOpts.hostname) !== bareAddress(target.hostname)) {
      callback(new Error(`guarded dispatcher is pinned to ${target.hostname}, refused ${connectOpts.hostname}`), null);
      return;
    }
    base({ ...connectOpts, hostname: target.address }, callback);
  };
  return new Agent({ connect, headersTimeout: timeout, bodyTimeout: timeout, connections: 1, pipelining: 0 });
}

export interface GuardedRequestInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Total budget for DNS, connect, TLS and response headers. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Outcome of a guarded request. `response` carries any HTTP status, 3xx included: redirects are never
 * followed (Events > Endpoint requirements 4), the caller decides what a 3xx means.
 */
export type GuardedResult =
  | { kind: 'response'; status: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'timeout'; reason: string }
  | { kind: 'error'; reason: string };

export interface SsrfGuardOptions {
  resolver?: Resolver;
  /**
   * Exact addresses permitted despite the rules. Test-only: lets a test reach a receiver on 127.0.0.1.
   * Production code constructs the guard without it; it is never read from config or the environment.
   */
  allowAddresses?: readonly string[];
  /** Extra trusted CA (PEM) for TLS to endpoints. */
  ca?: string | Buffer;
}

export class SsrfGuard {
  readonly #resolver: Resolver;
  readonly #allow: AllowList;
  readonly #ca: string | Buffer | undefined;

  constructor(opts: SsrfGuardOptions = {}) {
    this.#resolver = opts.resolver ?? systemResolver;
    const keys = (opts.allowAddresses ?? []).map((a) => {
      const key = addressKey(a);
      if (key === null) throw new Error(`allowAddresses entry is not an IP address: ${a}`);
      return key;
    });
    this.#allow = keys.length === 0 ? {} : { allow: new Set(keys) };
    this.#ca = opts.ca;
  }

  checkUrlSyntax(raw: string): UrlCheck {
    return checkSyntax(raw, this.#allow);
  }

  resolveAndCheck(url: URL, signal?: AbortSignal): Promise<AddressCheck> {
    return resolveChecked(url, this.#resolver, this.#allow, signal);
  }

  /** Re-checks syntax, resolves and checks every address, then requests the pinned address. Never throws. */
  async request(raw: string, init: GuardedRequestInit): Promise<GuardedResult> {
    const timeoutSignal = AbortSignal.timeout(init.timeoutMs);
    const signal = init.signal === undefined ? timeoutSignal : AbortSignal.any([timeoutSignal, init.signal]);
    const failed = (e: unknown): GuardedResult => {
      if (timeoutSignal.aborted) return { kind: 'timeout', reason: `no response within ${init.timeoutMs} ms` };
      if (signal.aborted) return { kind: 'error', reason: 'aborted' };
      const code = e instanceof Error && 'code' in e ? ` (${String(e.code)})` : '';
      return { kind: 'error', reason: `${e instanceof Error ? e.message : String(e)}${code}` };
    };
    const syntax = this.checkUrlSyntax(raw);
    if (!syntax.ok) return { kind: 'refused', reason: syntax.reason };
    let target: AddressCheck;
    try {
      target = await this.resolveAndCheck(syntax.url, signal);
    } catch (e) {
      return failed(e);
    }
    if (!target.ok) return { kind: 'refused', reason: target.reason };
    const dispatcher: Dispatcher = createGuardedDispatcher(target, {
      timeoutMs: init.timeoutMs,
      ...(this.#ca === undefined ? {} : { ca: this.#ca }),
    });
    try {
      const res = await request(syntax.url, {
        dispatcher,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        ...(init.body === undefined ? {} : { body: init.body }),
        signal,
      });
      // Only the status is read (Endpoint requirements 5); drop the body without waiting for it.
      res.body.on('error', () => undefined);
      res.body.destroy();
      return { kind: 'response', status: res.statusCode };
    } catch (e) {
      return failed(e);
    } finally {
      await dispatcher.destroy().catch(() => undefined);
    }
  }
}

let defaultGuard: SsrfGuard | undefined;

/** `SsrfGuard#request` on a process-wide guard using system DNS and the default CA store. */
export function guardedRequest(url: string, init: GuardedRequestInit): Promise<GuardedResult> {
  defaultGuard ??= new SsrfGuard();
  return defaultGuard.request(url, init);
}
