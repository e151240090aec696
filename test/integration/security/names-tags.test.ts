/**
 * Security hardening, finding 6 (names and spend tags): markup and invisible formatting characters (bidi
 * overrides) are refused where names and tags come in, and every dashboard view escapes what was stored
 * before the rule existed.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestOrg } from '../dashboard/harness.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../../helpers/refusal.js';

let h: Harness;
let org: TestOrg;
let t: TestGateway;

beforeAll(async () => {
  h = await startHarness();
  org = await h.org(['owner']);
  t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
});

afterAll(async () => {
  await h.close();
  await t.close();
});

const CHAT = { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
const RLO = '\u202e';

/** A raw request whose header bytes are UTF-8 (fetch cannot send them). */
function rawWithTag(tag: string): Promise<string> {
  const port = Number(new URL(t.url).port);
  const body = JSON.stringify(CHAT);
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let got = '';
    sock.on('data', (d) => (got += d.toString('utf8')));
    sock.on('close', () => resolve(got));
    sock.on('error', reject);
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${t.key}\r\nx-svc-tags: ${tag}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
    sock.write(Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(body)]));
  });
}

describe('finding 6: spend tags', () => {
  for (const tag of ['team=<script>alert(1)</script>', 'team="quoted"', "team=a'b", 'team=a&b']) {
    it(`x-svc-tags ${tag} is 400 with no upstream call and no credit moved`, async () => {
      const before = await snapshot(t);
      const res = await post(t, '/v1/chat/completions', CHAT, { 'x-svc-tags': tag });
      const err = await expectRefusal(t, before, res, 400, 'invalid_request');
      expect(err.error.message).toContain('is not a key=value pair (a value has no markup, control or invisible formatting characters)');
    });
  }

  it('a bidi override in a tag value (UTF-8 header bytes) is 400', async () => {
    const before = await snapshot(t);
    const answer = await rawWithTag(`file=invoice${RLO}fdp.exe`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"invalid_request"');
    expect(await snapshot(t)).toEqual(before);
  });

  it('an ordinary tag still passes', async () => {
    const res = await post(t, '/v1/chat/completions', CHAT, { 'x-svc-tags': 'team=search,env=prod eu' });
    expect(res.status).toBe(200);
  });
});

describe('finding 6: names', () => {
  for (const [path, field] of [
    ['/api/keys', 'name'],
    ['/api/teams', 'name'],
  ] as const) {
    for (const bad of ['<img src=x onerror=alert(1)>', `invoice${RLO}fdp.exe`, 'zero\u200bwidth']) {
      it(`${path} refuses ${field} ${JSON.stringify(bad)} with 400 and stores nothing`, async () => {
        const before = await h.call('GET', `${path}?orgId=${org.id}`, { cookie: org.cookie });
        const r = await h.call('POST', `${path}?orgId=${org.id}`, { cookie: org.cookie, body: { [field]: bad } });
        expect(r.status).toBe(400);
        expect(r.json.error).toEqual({
          message: `${field} must not contain <, > or invisible formatting characters (such as bidi overrides)`,
          type: 'invalid_request',
          code: 'invalid_request',
          param: field,
        });
        expect((await h.call('GET', `${path}?orgId=${org.id}`, { cookie: org.cookie })).text).toBe(before.text);
      });
    }
  }

  it('every dashboard view escapes names stored before the rule: no raw <, > or bidi override in the bytes, same value parsed', async () => {
    const legacy = `<b>old</b> ${RLO}team`;
    await h.dash.services.store.createTeam({ id: 'legacy-team', orgId: org.id, name: legacy, rpm: null, tpm: null, budget: null, createdAt: Date.now() });
    const r = await h.call('GET', `/api/teams?orgId=${org.id}`, { cookie: org.cookie });
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/[<>\u202e]/);
    expect(r.text).toContain('\\u003cb\\u003eold\\u003c/b\\u003e \\u202eteam');
    expect(JSON.stringify(r.json)).toContain(JSON.stringify(legacy).slice(1, -1));
  });
});

describe('finding 6: weak imported keys', () => {
  it('bulk import refuses a weak key value with 400 naming value, imports nothing, and takes a strong one', async () => {
    const before = await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: org.cookie });
    for (const value of ['sk-svc-aaaaaaaaaaaaaaaaaaaaaaaa', 'sk-svc-12345678901234567890', 'sk-svc-passwordpassword1']) {
      const r = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, { cookie: org.cookie, body: { keys: [{ name: 'weak', value }] } });
      expect(r.status, value).toBe(400);
      expect((r.json.error as { param?: string }).param, value).toMatch(/value$/);
    }
    expect((await h.call('GET', `/api/keys?orgId=${org.id}`, { cookie: org.cookie })).text).toBe(before.text);
    const strong = await h.call('POST', `/api/keys/bulk-import?orgId=${org.id}`, { cookie: org.cookie, body: { keys: [{ name: 'strong', value: 'sk-svc-Q7vN2kLp9XwR4tYb8MzC3dFg' }] } });
    expect(strong.status).toBe(201);
  });
});
