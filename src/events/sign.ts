/**
 * Webhook signatures (gateway-api.md, Events > Signature): HMAC-SHA256 over the exact raw body bytes,
 * keyed by the subscription secret, hex-encoded, prefixed `sha256=`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-svc-signature';
const PREFIX = 'sha256=';

function digest(secret: string, raw: Buffer | string): Buffer {
  // A string body is hashed as its UTF-8 bytes, which is what goes on the wire.
  return createHmac('sha256', secret).update(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw).digest();
}

export function signBody(secret: string, raw: Buffer | string): string {
  return PREFIX + digest(secret, raw).toString('hex');
}

/**
 * Constant-time check of a `sha256=<hex>` header against the raw body. A missing, malformed or
 * wrong-length header is refused before any comparison, so timingSafeEqual never sees unequal
 * lengths; the comparison itself does not depend on where the digests differ.
 */
export function verifySignature(secret: string, raw: Buffer | string, header: string | null | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith(PREFIX)) return false;
  const hex = header.slice(PREFIX.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = digest(secret, raw);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
