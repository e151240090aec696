import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Wrap timingSafeEqual so the test can see that verification goes through it.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual) };
});

const crypto = await import('node:crypto');
const { signBody, verifySignature } = await import('../../../src/events/sign.js');

describe('signBody', () => {
  it('matches RFC 4231 test case 2 (HMAC-SHA-256)', () => {
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('hashes the exact bytes: a string and its UTF-8 buffer sign the same, a re-serialisation does not', () => {
    const raw = '{"event":"key.created","data":{"key_alias":"caf\u00e9"}}';
    expect(signBody('s3cret-key', raw)).toBe(signBody('s3cret-key', Buffer.from(raw, 'utf8')));
    const reserialised = JSON.stringify(JSON.parse(raw), null, 1);
    expect(signBody('s3cret-key', reserialised)).not.toBe(signBody('s3cret-key', raw));
    expect(signBody('s3cret-key', raw)).toBe(`sha256=${createHmac('sha256', 's3cret-key').update(raw).digest('hex')}`);
  });
});

describe('verifySignature', () => {
  const secret = 'whsec-0123456789';
  const body = Buffer.from('{"event":"key.revoked","organization_id":"o","timestamp":"t","data":{}}');
  const good = signBody(secret, body);
  const tse = vi.mocked(crypto.timingSafeEqual);
  afterEach(() => tse.mockClear());

  it('accepts the signature of the raw body, hex in either case', () => {
    expect(verifySignature(secret, body, good)).toBe(true);
    expect(verifySignature(secret, body, `sha256=${good.slice(7).toUpperCase()}`)).toBe(true);
  });

  it.each([
    ['a flipped body byte', secret, Buffer.concat([body.subarray(0, 5), Buffer.from('X'), body.subarray(6)]), good],
    ['an appended byte', secret, Buffer.concat([body, Buffer.from(' ')]), good],
    ['another secret', 'whsec-9876543210', body, good],
    ['a flipped digest digit', secret, body, good.slice(0, -1) + (good.endsWith('0') ? '1' : '0')],
  ])('detects tampering: %s', (_label, s, b, header) => {
    expect(verifySignature(s, b, header)).toBe(false);
    // the mismatch was found by the constant-time compare, on equal-length digests
    expect(tse).toHaveBeenCalledTimes(1);
    const [a, c] = tse.mock.calls[0] ?? [];
    expect((a as Buffer).length).toBe(32);
    expect((c as Buffer).length).toBe(32);
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['no prefix', good.slice(7)],
    ['sha1 prefix', `sha1=${good.slice(7)}`],
    ['short digest', good.slice(0, -2)],
    ['long digest', `${good}00`],
    ['non-hex digest', `sha256=${'z'.repeat(64)}`],
  ])('refuses a malformed header without comparing (%s)', (_label, header) => {
    expect(verifySignature(secret, body, header)).toBe(false);
    expect(tse).not.toHaveBeenCalled();
  });
});
