/**
 * Our SigV4 against the published vectors of the AWS Signature Version 4 test suite and the IAM example of
 * the AWS General Reference (credentials AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 2015-08-30).
 * The comparison with an independent signer (@smithy/signature-v4) is in test/sim/bedrock-sim.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { amzDate, canonicalUri, sha256Hex, signatureParts, signRequest, uriEscape } from '../../../../src/providers/bedrock/sigv4.js';

const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const NOW = new Date('2015-08-30T12:36:00Z');
const EMPTY = sha256Hex('');

describe('SigV4 test-suite vectors', () => {
  it('get-vanilla: canonical request, string to sign, signature', () => {
    const parts = signatureParts('GET', new URL('https://example.amazonaws.com/'), { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' }, EMPTY, CREDS, 'us-east-1', 'service', NOW);
    expect(parts.canonicalRequest).toBe(`GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`);
    expect(parts.stringToSign).toBe(
      'AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63',
    );
    expect(parts.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('get-vanilla-query-order-key-case: query parameters sorted by encoded name', () => {
    const url = new URL('https://example.amazonaws.com/?Param2=value2&Param1=value1');
    const parts = signatureParts('GET', url, { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z' }, EMPTY, CREDS, 'us-east-1', 'service', NOW);
    expect(parts.canonicalRequest.split('\n')[2]).toBe('Param1=value1&Param2=value2');
    expect(parts.signature).toBe('b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500');
  });

  it('General Reference IAM ListUsers example', () => {
    const url = new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08');
    const headers = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', host: 'iam.amazonaws.com', 'x-amz-date': '20150830T123600Z' };
    const parts = signatureParts('GET', url, headers, EMPTY, CREDS, 'us-east-1', 'iam', NOW);
    expect(parts.signature).toBe('5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7');
  });
});

describe('pieces', () => {
  it('canonical URI: each segment encoded again, dot segments removed, strict RFC 3986', () => {
    expect(canonicalUri('/model/anthropic.claude-v2%3A1/converse')).toBe('/model/anthropic.claude-v2%253A1/converse');
    expect(canonicalUri('/a/./b/../c//d/')).toBe('/a/c/d/');
    expect(canonicalUri('')).toBe('/');
    expect(uriEscape("a b!'()*~._-")).toBe('a%20b%21%27%28%29%2A~._-');
  });

  it('amz date format', () => {
    expect(amzDate(new Date('2024-01-02T03:04:05.678Z'))).toBe('20240102T030405Z');
  });

  it('signRequest adds the generated headers and never signs user-agent', () => {
    const headers = signRequest({
      method: 'POST',
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'svc', authorization: 'stale' },
      body: '{}',
      credentials: { ...CREDS, sessionToken: 'session' },
      region: 'us-east-1',
      service: 'bedrock',
      now: NOW,
    });
    expect(headers['x-amz-content-sha256']).toBe(sha256Hex('{}'));
    expect(headers['x-amz-security-token']).toBe('session');
    expect(headers['user-agent']).toBe('svc');
    expect(headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
  });
});
