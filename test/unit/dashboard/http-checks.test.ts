import { describe, expect, it } from 'vitest';
import { parseJson, refuseBearer, requireJson, requireSameOrigin, segment } from '../../../src/dashboard/http.js';
import { sessionIdFrom } from '../../../src/dashboard/sessions.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import type { IncomingRequest } from '../../../src/server/types.js';

const ORIGIN = 'https://dash.example.com';

function req(headers: Record<string, string>, body = '', path = '/api/keys'): IncomingRequest {
  return { method: 'POST', path, query: '', headers: new Map(Object.entries(headers)), ip: '127.0.0.1', body: Buffer.from(body), startedAt: 0 };
}

function refusal(fn: () => unknown): { status: number; code: string | null } | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof GatewayError) return { status: e.status, code: e.code };
    throw e;
  }
}

describe('same-origin rule for writes', () => {
  it.each([
    [{ origin: ORIGIN }, null],
    [{ referer: `${ORIGIN}/keys?x=1` }, null],
    [{ origin: ORIGIN, referer: 'https://evil.example/' }, null],
    [{}, 'origin_not_allowed'],
    [{ origin: 'https://evil.example' }, 'origin_not_allowed'],
    [{ origin: 'http://dash.example.com' }, 'origin_not_allowed'],
    [{ origin: 'https://dash.example.com:8443' }, 'origin_not_allowed'],
    [{ origin: `${ORIGIN}.evil.example` }, 'origin_not_allowed'],
    [{ origin: 'null' }, 'origin_not_allowed'],
    [{ origin: 'null', referer: `${ORIGIN}/` }, 'origin_not_allowed'],
    [{ origin: 'https://evil.example', referer: `${ORIGIN}/` }, 'origin_not_allowed'],
    [{ referer: 'https://evil.example/?u=https://dash.example.com' }, 'origin_not_allowed'],
    [{ referer: 'not a url' }, 'origin_not_allowed'],
  ])('%j -> %s', (headers, code) => {
    const r = refusal(() => requireSameOrigin(req(headers), ORIGIN));
    expect(r === null ? null : r.code).toBe(code);
    if (r !== null) expect(r.status).toBe(403);
  });
});

describe('credentials other than the session cookie', () => {
  it.each([
    [{ authorization: 'Bearer sk-svc-abc' }, 'virtual_key_not_accepted'],
    [{ authorization: 'Bearer sk-legacy-abc' }, 'virtual_key_not_accepted'],
    [{ authorization: 'Basic dXNlcjpwdw==' }, 'virtual_key_not_accepted'],
    [{ 'x-api-key': 'sk-svc-abc' }, 'virtual_key_not_accepted'],
    [{ cookie: 'svc_session=abc' }, null],
  ])('%j -> %s', (headers, code) => {
    const r = refusal(() => refuseBearer(req(headers)));
    expect(r === null ? null : r.code).toBe(code);
    if (r !== null) expect(r.status).toBe(401);
  });
});

describe('JSON bodies', () => {
  it('needs application/json (parameters allowed) and valid JSON', () => {
    expect(refusal(() => requireJson(req({ 'content-type': 'application/json' })))).toBeNull();
    expect(refusal(() => requireJson(req({ 'content-type': 'Application/JSON; charset=utf-8' })))).toBeNull();
    expect(refusal(() => requireJson(req({ 'content-type': 'text/plain' })))).toEqual({ status: 415, code: 'invalid_request' });
    expect(refusal(() => requireJson(req({ 'content-type': 'application/jsonp' })))).toEqual({ status: 415, code: 'invalid_request' });
    expect(refusal(() => requireJson(req({})))).toEqual({ status: 415, code: 'invalid_request' });
    expect(parseJson(req({}, '{"a":1}').body, 16)).toEqual({ a: 1 });
    expect(parseJson(req({}, '').body, 16)).toBeUndefined();
    expect(refusal(() => parseJson(req({}, '{"a":').body, 16))).toEqual({ status: 400, code: 'invalid_request' });
    expect(parseJson(req({}, '{"a":[[{"b":[]}]]}').body, 5)).toEqual({ a: [[{ b: [] }]] });
    expect(refusal(() => parseJson(req({}, '{"a":[[{"b":[[]]}]]}').body, 5))).toEqual({ status: 400, code: 'invalid_request' });
  });
});

describe('cookies and paths', () => {
  it('reads the session cookie among others', () => {
    expect(sessionIdFrom('a=1; svc_session=abc_DEF-9; b=2')).toBe('abc_DEF-9');
    expect(sessionIdFrom('svc_session_old=zzz')).toBeNull();
    expect(sessionIdFrom(undefined)).toBeNull();
  });

  it('decodes path segments', () => {
    expect(segment(req({}, '', '/api/keys/a%20b/rotate'), 2)).toBe('a b');
    expect(segment(req({}, '', '/api/keys/%E0%A4'), 2)).toBe('%E0%A4');
    expect(segment(req({}, '', '/api/keys'), 2)).toBe('');
  });
});
