/**
 * Issue "Trust defects", item 2, through HTTP: an OpenAI-format upstream that frames its SSE with CRLF, CR
 * or mixed line ends, and writes its bytes in small pieces. The passthrough (chat client) and the canonical
 * path (messages client) both stream the answer without an error event, and the request is settled with
 * exactly the usage the upstream reported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const PROMPT_TOKENS = 11;
const COMPLETION_TOKENS = 3;
let eols: string[] = ['\n'];
let piece = 1;
let upstream: Server;
let t: TestGateway;

function upstreamStream(): Buffer {
  const chunk = (delta: string, finish: string | null): string =>
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":${delta},"finish_reason":${finish === null ? 'null' : `"${finish}"`}}],"usage":null}`;
  const lines = [
    chunk('{"role":"assistant","content":""}', null),
    '',
    ': keep-alive',
    '',
    chunk('{"content":"Hi é"}', null),
    '',
    chunk('{"content":" there"}', null),
    '',
    chunk('{}', 'stop'),
    '',
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":${PROMPT_TOKENS},"completion_tokens":${COMPLETION_TOKENS},"total_tokens":${PROMPT_TOKENS + COMPLETION_TOKENS}}}`,
    '',
    'data: [DONE]',
    '',
  ];
  let out = '';
  let prev = '';
  lines.forEach((l, i) => {
    let eol = eols[i % eols.length]!;
    if (l === '' && prev === '\r' && eol !== '\r') eol = '\r'; // CR + LF-blank-line would read as one CRLF
    out += l + eol;
    prev = eol;
  });
  return Buffer.from(out);
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = upstreamStream();
      let at = 0;
      const next = (): void => {
        if (at >= bytes.length) return void res.end();
        res.write(bytes.subarray(at, at + piece));
        at += piece;
        setImmediate(next);
      };
      next();
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  t = await startTestGateway({
    config: { guardrails: { mode: 'off' } },
    patch: (c) => {
      const m = c.models.find((x) => x.id === 'gpt-4o-mini')!;
      m.endpoints = m.endpoints.map((e) => ({ ...e, baseUrl: base }));
    },
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise((r) => upstream?.close(r));
});

async function lastEntry(): Promise<{ inputTokens: number; outputTokens: number; status: string }> {
  await t.gw.deps.settlement.flush();
  const [entry] = await t.store.listLedger(t.orgId, { limit: 1 });
  return entry!;
}

const CASES: [string, string[], number][] = [
  ['LF', ['\n'], 1],
  ['CRLF', ['\r\n'], 1],
  ['CRLF', ['\r\n'], 3],
  ['CR', ['\r'], 1],
  ['CR', ['\r'], 7],
  ['mixed', ['\r\n', '\n', '\r'], 1],
  ['mixed', ['\r', '\r\n', '\n', '\r\n'], 2],
];

describe.each(CASES)('%s line ends, upstream writes %#', (_name, lineEnds, size) => {
  it(`passthrough (chat client, ${size}-byte writes): no error event, billed as reported`, async () => {
    eols = lineEnds;
    piece = size;
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Hi é');
    expect(text).not.toContain('ended unexpectedly');
    expect(text).not.toContain('"error"');
    expect(text.trimEnd().endsWith('[DONE]')).toBe(true);
    expect(text).toContain(`"output_tokens":${COMPLETION_TOKENS}`); // the x-svc-usage comment
    expect(await lastEntry()).toMatchObject({ inputTokens: PROMPT_TOKENS, outputTokens: COMPLETION_TOKENS, status: 'ok' });
  });

  it(`canonical path (messages client, ${size}-byte writes): no error event, billed as reported`, async () => {
    eols = lineEnds;
    piece = size;
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Hi é');
    expect(text).toContain('event: message_stop');
    expect(text).not.toContain('event: error');
    expect(await lastEntry()).toMatchObject({ inputTokens: PROMPT_TOKENS, outputTokens: COMPLETION_TOKENS, status: 'ok' });
  });
});
