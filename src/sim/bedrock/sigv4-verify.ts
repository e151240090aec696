/**
 * Verifies the AWS Signature V4 of an incoming request with an implementation independent of the
 * gateway's own signer: `@smithy/signature-v4` (the AWS SDK's signer), loaded only when an endpoint is
 * configured with credentials. The request is re-signed from what arrived on the wire: the headers named
 * in SignedHeaders, the raw (still percent-encoded) path, the body's SHA-256, the x-amz-date time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import type { JsonReply } from '../http.js';
import type { SigV4Credentials } from '../types.js';
import { awsError } from './errors.js';

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
/** AWS refuses a signature more than 15 minutes away from its clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;

function header(request: SimRequest, name: string): string | undefined {
  const value = request.req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

const invalidSignature = (): JsonReply =>
  awsError(
    403,
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );
const badToken = (): JsonReply => awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');

async function expectedSignature(request: SimRequest, creds: SigV4Credentials, signed: string[], region: string, service: string, date: Date): Promise<string> {
  const [{ SignatureV4 }, { Sha256 }] = await Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]);
  const url = new URL(request.req.url ?? '/', 'http://sim.invalid');
  const headers: Record<string, string> = {};
  for (const name of signed) headers[name] = header(request, name) ?? '';
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const signer = new SignatureV4({ credentials: creds, region, service, sha256: Sha256 });
  const signedRequest = await signer.sign(
    { method: request.req.method ?? 'POST', protocol: 'http:', hostname: url.hostname, path: url.pathname, query, headers, body: request.body },
    { signingDate: date, signableHeaders: new Set(signed) },
  );
  const auth = signedRequest.headers.authorization ?? '';
  return /Signature=([0-9a-f]{64})$/.exec(auth)?.[1] ?? '';
}

/** null when the signature is valid; otherwise the 403 Bedrock would answer. */
export async function verifySigV4(request: SimRequest, creds: SigV4Credentials, service: string): Promise<JsonReply | null> {
  const auth = header(request, 'authorization');
  if (auth === undefined) return awsError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const m = AUTH.exec(auth);
  if (!m) return awsError(403, 'IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${auth.split(' ')[0] ?? ''}`);
  const [, accessKeyId, day, region, scopeService, signedList, signature] = m as unknown as [string, string, string, string, string, string, string];
  if (accessKeyId !== creds.accessKeyId) return badToken();
  if (creds.sessionToken !== undefined && header(request, 'x-amz-security-token') !== creds.sessionToken) return badToken();
  if (scopeService !== service) return awsError(403, 'InvalidSignatureException', `Credential should be scoped to correct service: '${service}'.`);
  const signed = signedList.split(';');
  const amzDate = header(request, 'x-amz-date');
  const date = amzDate === undefined ? null : parseAmzDate(amzDate);
  if (!signed.includes('host') || date === null || !amzDate?.startsWith(day)) return invalidSignature();
  if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) {
    return awsError(403, 'InvalidSignatureException', `Signature expired: ${amzDate} is now earlier than the allowed window (15 min).`);
  }
  const contentHash = header(request, 'x-amz-content-sha256');
  if (contentHash !== undefined && contentHash !== createHash('sha256').update(request.body).digest('hex')) return invalidSignature();
  const expected = await expectedSignature(request, creds, signed, region, scopeService, date);
  const ok = expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
  return ok ? null : invalidSignature();
}
