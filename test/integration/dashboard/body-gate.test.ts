/**
 * Security hardening, finding 4: the dashboard checks bearer, Origin, Content-Type and session before it
 * reads a body, caps bodies at what its API needs (64 KiB; bulk import 1 MiB) and refuses deep nesting.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, startHarness, type Harness, type TestOrg } from './harness.js';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await h.org(['owner']);
});

afterAll(async () => {
  await h.close();
});

/** Sends the head and only the first `sent` bytes of a `declared`-byte body; resolves with what came back. */
function partialPost(path: string, headers: Record<string, string>, declared: number, sent: number): Promise<string> {
  const port = Number(new URL(h.base).port);
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      sock.destroy();
      resolve(got);
    }, 1_500);
    sock.on('data', (d) => {
      got += d.toString('latin1');
      if (/\r\n\r\n[\s\S]*\}$/.test(got)) {
        clearTimeout(timer);
        sock.destroy();
        resolve(got);
      }
    });
    sock.on('error', reject);
    const head = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(declared), ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sock.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${'['.repeat(sent)}`);
  });
}

const code = (r: { json: Record<string, unknown> }): unknown => (r.json.error as { code?: unknown } | undefined)?.code;

describe('finding 4: session and Origin before the body', () => {
  it('an anonymous POST is answered 401 before its body has arrived (the body is never read)', async () => {
    const raw = await partialPost(`/api/teams?orgId=${org.id}`, { origin: ORIGIN }, 60_000, 1_000);
    expect(raw).toMatch(/^HTTP\/1\.1 401 /);
    expect(raw).toContain('"code":"session_required"');
  });

  it('a POST with a foreign Origin is answered 403 before its body has arrived, even with a valid session', async () => {
    const raw = await partialPost(`/api/teams?orgId=${org.id}`, { origin: 'https://evil.example', cookie: org.cookie }, 60_000, 1_000);
    expect(raw).toMatch(/^HTTP\/1\.1 403 /);
    expect(raw).toContain('"code":"origin_not_allowed"');
  });

  it('a non-member gets 403 before the body is read; the open sign-in route checks Origin first', async () => {
    const other = await h.org(['owner']);
    const raw = await partialPost(`/api/teams?orgId=${org.id}`, { origin: ORIGIN, cookie: other.cookie }, 60_000, 1_000);
    expect(raw).toMatch(/^HTTP\/1\.1 403 /);
    expect(raw).toContain('"code":"insufficient_role"');
    const login = await partialPost('/api/auth/login', {}, 60_000, 1_000);
    expect(login).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('an anonymous malformed body is 401, not a parse error (nothing was parsed)', async () => {
    const r = await h.call('POST', `/api/teams?orgId=${org.id}`, { raw: '{"name":'.padEnd(40_000, '[') });
    expect(r.status).toBe(401);
    expect(code(r)).toBe('session_required');
  });

  it('bodies above 64 KiB are 413 on ordinary routes; bulk import takes up to 1 MiB', async () => {
    const big = { name: 'x', pad: 'y'.repeat(70_000) };
    const r = await h.call('POST', `/api/teams?orgId=${org.id}`, { cookie: org.cookie, body: big });
    expect(r.status).toBe(413);
    expect(r.json.error).toEqual({ message: 'Request body exceeds the 65536-byte limit.', type: 'invalid_request', code: 'payload_too_large' });
    const rows = Array.from({ length: 400 }, (_, i) => ({ name: `imported ${i} ${'n'.repeat(150)}` }));
    const bulk = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, { cookie: org.cookie, body: { keys: rows } });
    expect(JSON.stringify({ keys: rows }).length).toBeGreaterThan(65_536);
    expect(bulk.status).toBe(201);
    expect((bulk.json.keys as unknown[]).length).toBe(400);
  });

  it('a signed-in body nested deeper than 16 levels is 400 and creates nothing', async () => {
    const deep = `{"name":"deep","x":${'['.repeat(17)}${']'.repeat(17)}}`;
    const r = await h.call('POST', `/api/teams?orgId=${org.id}`, { cookie: org.cookie, raw: deep });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ message: 'JSON nesting exceeds the maximum depth of 16.', type: 'invalid_request', code: 'invalid_request' });
    const teams = await h.call('GET', `/api/teams?orgId=${org.id}`, { cookie: org.cookie });
    expect(JSON.stringify(teams.json)).not.toContain('"deep"');
  });
});
