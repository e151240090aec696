/**
 * Security hardening, finding 5: tenant image URLs naming cloud storage (s3://, gs://) would be read by
 * Bedrock and Vertex with the operator's credentials. They are refused unless the operator allowed the
 * bucket for the organization (`svc admin org storage`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAdminCli } from '../../../src/dashboard/cli-commands.js';
import { Logger } from '../../../src/obs/logger.js';
import { simulatedEndpoint } from '../../../src/sim/upstream-urls.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { expectRefusal, post, snapshot } from '../../helpers/refusal.js';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway({
    config: { guardrails: { mode: 'off' } },
    patch: (c) => {
      const simUrl = c.models.find((m) => m.id === 'gpt-4o')!.endpoints[0]!.baseUrl.replace(/\/v1$/, '');
      const base = c.models.find((m) => m.id === 'anthropic/claude-sonnet-4')!;
      c.models.push(
        { ...base, id: 'sec/bedrock-claude', endpoints: [simulatedEndpoint({ provider: 'bedrock', upstreamModel: 'anthropic.claude-sonnet-4-v1:0', baseUrl: '', apiKeyEnv: null }, simUrl)] },
        { ...base, id: 'sec/vertex-gemini', endpoints: [simulatedEndpoint({ provider: 'vertex', upstreamModel: 'gemini-2.0-flash', baseUrl: '', apiKeyEnv: null }, simUrl)] },
      );
    },
  });
});

afterAll(async () => t.close());
beforeEach(() => t.sim.reset());

const chat = (model: string, url: string): Record<string, unknown> => ({
  model,
  max_tokens: 5,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image_url', image_url: { url } }] }],
});

describe('finding 5: cloud-storage image URLs', () => {
  for (const [model, url] of [
    ['sec/bedrock-claude', 's3://operator-private/finance/q3.png'],
    ['sec/vertex-gemini', 'gs://operator-private/finance/q3.png'],
    ['sec/vertex-gemini', 'GS://operator-private/finance/q3.png'],
    ['sec/vertex-gemini', 's3://operator-private/finance/q3.png'],
  ] as const) {
    it(`${model} refuses ${url.slice(0, 5)} with 400, no upstream call and no credit moved`, async () => {
      const before = await snapshot(t);
      const res = await post(t, '/v1/chat/completions', chat(model, url));
      const body = await expectRefusal(t, before, res, 400, 'invalid_request');
      expect(body.error.message).toMatch(/^Image URL (s3|gs):\/\/operator-private\/\.\.\. is not allowed: cloud-storage URLs are read with the gateway's credentials/);
    });
  }

  it('the Anthropic format is refused the same way', async () => {
    const before = await snapshot(t);
    const res = await post(t, '/v1/messages', {
      model: 'sec/bedrock-claude',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 's3://operator-private/a.png' } }] }],
    });
    await expectRefusal(t, before, res, 400, 'invalid_request');
  });

  it('a bucket the operator allowed for the organization passes; other buckets and organizations stay refused', async () => {
    const lines: string[] = [];
    const code = await runAdminCli(['org', 'storage', '--org', t.orgId, '--allow', 'gs://tenant-media,s3://tenant-media'], t.store, (l) => lines.push(l), {
      logger: new Logger('error', true, () => undefined),
    });
    expect(code).toBe(0);
    expect(lines).toEqual([`org ${t.orgId} storage buckets: gs://tenant-media, s3://tenant-media`]);
    const ok = await post(t, '/v1/chat/completions', chat('sec/vertex-gemini', 'gs://tenant-media/cat.png'));
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(t.sim.stats().requests).toBe(1);
    const okS3 = await post(t, '/v1/chat/completions', chat('sec/bedrock-claude', 's3://tenant-media/cat.png'));
    expect(okS3.status, await okS3.clone().text()).toBe(200);
    const before = await snapshot(t);
    await expectRefusal(t, before, await post(t, '/v1/chat/completions', chat('sec/vertex-gemini', 'gs://tenant-media-evil/cat.png')), 400, 'invalid_request');
    await t.addOrg('org-other', 10);
    const other = await t.addKey({ orgId: 'org-other' });
    const beforeOther = await snapshot(t, 'org-other');
    const res = await post(t, '/v1/chat/completions', chat('sec/vertex-gemini', 'gs://tenant-media/cat.png'), { authorization: `Bearer ${other.value}` });
    await expectRefusal(t, beforeOther, res, 400, 'invalid_request', {}, 'org-other');
    const bad = await runAdminCli(['org', 'storage', '--org', t.orgId, '--allow', 'https://x.example/b'], t.store, () => undefined, { logger: new Logger('error', true, () => undefined) });
    expect(bad).toBe(2);
  });
});
