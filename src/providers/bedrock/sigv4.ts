/**
 * AWS Signature Version 4 for request headers (AWS General Reference, "Create a signed AWS API request"):
 *
 *   canonical request = method \n canonical URI \n canonical query \n canonical headers \n
 *                       signed header names \n hex(sha256(payload))
 *   string to sign    = "AWS4-HMAC-SHA256" \n amz-date \n date/region/service/aws4_request \n hex(sha256(canonical request))
 *   signing key       = HMAC chain "AWS4"+secret -> date -> region -> service -> "aws4_request"
 *
 * The canonical URI encodes each already-encoded path segment once more (every service except S3), after
 * removing empty, `.` and `..` segments. Like the AWS SDKs, the signer adds `x-amz-date`,
 * `x-amz-content-sha256` and, with temporary credentials, `x-amz-security-token`, and signs every header
 * it is given except the hop-by-hop and agent headers a proxy may rewrite.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignInput {
  method: string;
  url: string;
  /** Headers to send and sign (names in any case); `host` is added from the URL when missing. */
  headers: Record<string, string>;
  body: string | Buffer;
  credentials: AwsCredentials;
  region: string;
  service: string;
  now: Date;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

/** Never signed: a proxy or the HTTP stack may add or rewrite them (same list as the AWS SDKs). */
const UNSIGNABLE = new Set([
  'authorization', 'cache-control', 'connection', 'expect', 'from', 'keep-alive', 'max-forwards', 'pragma',
  'referer', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'x-amzn-trace-id',
]);

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** RFC 3986 unreserved characters stay; everything else is %XX (upper case), as SigV4 requires. */
export function uriEscape(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20240102T030405Z` */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function canonicalUri(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  return `/${segments.map(uriEscape).join('/')}${trailing}`;
}

export function canonicalQuery(search: URLSearchParams): string {
  return [...search]
    .map(([k, v]) => [uriEscape(k), uriEscape(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Lower-case names, trimmed values with inner whitespace runs collapsed; unsignable headers left out. */
export function canonicalHeaders(headers: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (UNSIGNABLE.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) continue;
    out.set(lower, value.replace(/[\r\n]/g, ' ').replace(/[ \t]+/g, ' ').trim());
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

export interface SignatureParts {
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
  signedHeaders: string;
  scope: string;
}

/** Every intermediate of one signature (exported for tests and for diagnosing a 403). */
export function signatureParts(method: string, url: URL, headers: Record<string, string>, payloadHash: string, credentials: AwsCredentials, region: string, service: string, now: Date): SignatureParts {
  const longDate = amzDate(now);
  const shortDate = longDate.slice(0, 8);
  const canonical = canonicalHeaders(headers);
  const signedHeaders = [...canonical.keys()].join(';');
  const canonicalRequest = [
    method.toUpperCase(),
    canonicalUri(url.pathname),
    canonicalQuery(url.searchParams),
    [...canonical].map(([k, v]) => `${k}:${v}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${shortDate}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, longDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(credentials.secretAccessKey, shortDate, region, service))
    .update(stringToSign, 'utf8')
    .digest('hex');
  return { canonicalRequest, stringToSign, signature, signedHeaders, scope };
}

/** The headers to send: the input headers plus host, x-amz-date, x-amz-content-sha256, token, authorization. */
export function signRequest(input: SignInput): Record<string, string> {
  const url = new URL(input.url);
  const payloadHash = sha256Hex(input.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers.host ??= url.host;
  headers['x-amz-date'] = amzDate(input.now);
  headers['x-amz-content-sha256'] = payloadHash;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  delete headers.authorization;
  const parts = signatureParts(input.method, url, headers, payloadHash, input.credentials, input.region, input.service, input.now);
  headers.authorization = `${ALGORITHM} Credential=${input.credentials.accessKeyId}/${parts.scope}, SignedHeaders=${parts.signedHeaders}, Signature=${parts.signature}`;
  return headers;
}
