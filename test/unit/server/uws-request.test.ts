import type { HttpResponse } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { UwsRequest } from '../../../src/server/app.js';
import type { UwsSink } from '../../../src/server/uws-sink.js';

/** A request over a response that counts the address look-ups (each one a getpeername(2) in uWS). */
function request(address: string, sink: { open: boolean }) {
  let lookups = 0;
  const res = {
    getRemoteAddressAsText: (): ArrayBuffer => {
      lookups++;
      return new TextEncoder().encode(address).buffer;
    },
  } as unknown as HttpResponse;
  const req = new UwsRequest('POST', '/v1/chat/completions', '', new Map(), res, sink as unknown as UwsSink);
  return { req, lookups: () => lookups };
}

describe('UwsRequest client address', () => {
  it('is looked up on first use only, once, with an IPv4-mapped IPv6 address unwrapped', () => {
    const { req, lookups } = request('::ffff:10.1.2.3', { open: true });
    expect(lookups()).toBe(0);
    expect(req.ip).toBe('10.1.2.3');
    expect(req.ip).toBe('10.1.2.3');
    expect(lookups()).toBe(1);
  });

  it('keeps an IPv6 address as it is', () => {
    expect(request('2001:db8::1', { open: true }).req.ip).toBe('2001:db8::1');
  });

  it('is unknown (empty) when first asked after the response ended or was aborted, without touching the response', () => {
    const { req, lookups } = request('127.0.0.1', { open: false });
    expect(req.ip).toBe('');
    expect(lookups()).toBe(0);
  });
});
