/**
 * Request checks of the dashboard API that need no state (gateway-api.md, Authentication 5): no virtual
 * key, same-origin writes, JSON bodies. Each refuses with a catalog error.
 */
import { GatewayError } from '../errors/gateway-error.js';
import { scanJson } from '../pipeline/json-bytes.js';
import type { RequestHead, ResponseSink } from '../server/types.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, status = 200, headers?: Record<string, string>): Reply =>
  headers === undefined ? { status, body } : { status, body, headers };

const BASE_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export function replyHeaders(r: Reply): Record<string, string> {
  return { ...BASE_HEADERS, ...r.headers };
}

/**
 * JSON with markup and invisible format characters written as \u escapes: the same value for a JSON
 * parser, but a body that no browser can sniff into HTML and no viewer shows reordered by bidi controls,
 * whatever names and tags were stored before they were validated (security hardening, finding 6).
 */
export function safeJson(body: unknown): string {
  return JSON.stringify(body).replace(/[<>&\u2028\u2029\p{Cf}]/gu, (c) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

export function sendReply(res: ResponseSink, r: Reply): void {
  res.send(r.status, replyHeaders(r), safeJson(r.body));
}

export function sendError(res: ResponseSink, e: GatewayError): void {
  sendReply(res, { status: e.status, body: e.toBody(), headers: e.headers });
}

/**
 * The dashboard authenticates by session cookie only; any bearer credential or `x-api-key` is refused
 * outright (it is most likely a virtual key pasted into the wrong place), even next to a valid cookie.
 */
export function refuseBearer(req: RequestHead): void {
  const auth = req.headers.get('authorization');
  const apiKey = req.headers.get('x-api-key');
  if (auth === undefined && apiKey === undefined) return;
  const looksLikeKey = /\bsk-/.test(auth ?? '') || /^sk-/.test(apiKey ?? '');
  throw new GatewayError('virtual_key_not_accepted', {
    message: looksLikeKey
      ? 'A virtual key is never accepted on the dashboard API; sign in and use the session cookie.'
      : 'The dashboard API accepts no Authorization or x-api-key header; sign in and use the session cookie.',
  });
}

/** Writes need `Origin` (or, when absent, `Referer`) on exactly the dashboard origin (CSRF defence). */
export function requireSameOrigin(req: RequestHead, origin: string): void {
  const o = req.headers.get('origin');
  let seen: string | null = null;
  if (o !== undefined && o !== 'null') seen = o;
  else if (o === undefined) {
    const ref = req.headers.get('referer');
    if (ref !== undefined) {
      try {
        seen = new URL(ref).origin;
      } catch {
        seen = null;
      }
    }
  }
  if (seen !== origin) {
    throw new GatewayError('origin_not_allowed', {
      message: seen === null ? 'Origin or Referer header required for this method.' : `Origin ${seen} is not the dashboard origin.`,
    });
  }
}

/** POST/PATCH bodies must be declared `application/json` (parameters such as charset allowed). */
export function requireJson(req: RequestHead): void {
  const ct = req.headers.get('content-type');
  const media = ct?.split(';')[0]?.trim().toLowerCase();
  if (media !== 'application/json') {
    throw new GatewayError('unsupported_media_type', { message: 'Content-Type must be application/json.' });
  }
}

/** The parsed JSON body; undefined for an empty body; 400 when nested deeper than `maxDepth` (checked first). */
export function parseJson(body: Buffer, maxDepth: number): unknown {
  if (body.length === 0) return undefined;
  if (scanJson(body, maxDepth).tooDeep) throw new GatewayError('invalid_request', { message: `JSON nesting exceeds the maximum depth of ${maxDepth}.` });
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new GatewayError('invalid_request', { message: 'The body is not valid JSON.' });
  }
}

/** Path segment `i` (0 = first after the leading slash), URL-decoded. */
export function segment(req: RequestHead, i: number): string {
  const raw = req.path.split('/').filter((s) => s !== '')[i] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
