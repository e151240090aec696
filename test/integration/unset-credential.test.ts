import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post } from '../helpers/refusal.js';

/** An OpenAI-style upstream that refuses calls without a bearer credential, as the real API does. */
function refusingUpstream(): Promise<{ server: Server; url: string; seen: (string | undefined)[] }> {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'You did not provide an API key.', type: 'invalid_request_error', code: null } }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen })),
  );
}

describe('a request that fails behind an unset credential variable names it in its log line', () => {
  let t: TestGateway;
  let up: Awaited<ReturnType<typeof refusingUpstream>>;
  beforeAll(async () => {
    up = await refusingUpstream();
    t = await startTestGateway({
      config: { guardrails: { mode: 'off' } },
      patch: (c) => {
        c.models.push({
          id: 'acme/needs-key',
          ownedBy: 'acme',
          created: 0,
          contextLength: 8192,
          maxOutput: 1024,
          pricing: { input: 1, output: 2 },
          endpoints: [{ provider: 'openai', upstreamModel: 'm', baseUrl: up.url, apiKeyEnv: 'ACME_API_KEY' }],
        });
      },
    });
  });
  afterAll(async () => {
    await t.close();
    up.server.close();
  });

  const requestLines = (): { status: number; model: string; credential_unset?: string; error_code?: string }[] =>
    t.logs.map((l) => JSON.parse(l) as { msg: string }).filter((l) => l.msg === 'request') as never;

  it('503 to the client, ACME_API_KEY in the operator log', async () => {
    const res = await post(t, '/v1/chat/completions', { model: 'acme/needs-key', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('service_unavailable');
    expect(body.error.message).not.toContain('ACME_API_KEY'); // the variable name is for the operator, not the client
    expect(up.seen).toEqual([undefined]); // the call went out with no credential
    await new Promise((r) => setTimeout(r, 20));
    const line = requestLines().find((l) => l.model === 'acme/needs-key');
    expect(line).toMatchObject({ status: 503, credential_unset: 'ACME_API_KEY', error_code: 'service_unavailable' });
  });

  it('a served request carries no credential_unset field', async () => {
    const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const line = requestLines().find((l) => l.model === 'gpt-4o-mini');
    expect(line).toBeDefined();
    expect(line!.credential_unset).toBeUndefined();
  });
});
