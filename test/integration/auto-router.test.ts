import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutoTier } from '../../src/config/schema.js';
import { DEMO_ALIASES, DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post } from '../helpers/refusal.js';

interface Labelled {
  prompt: string;
  tier: AutoTier;
  tools?: boolean;
  padWords?: number;
}

const PROMPTS = JSON.parse(readFileSync(new URL('../fixtures/auto-router/prompts.json', import.meta.url), 'utf8')) as Labelled[];
const TIERS: AutoTier[] = ['simple', 'tools', 'long', 'reasoning'];
const auto = DEMO_ALIASES.find((a) => a.id === 'svc/auto')!;
if (auto.kind !== 'auto') throw new Error('svc/auto must be an auto alias');
const tierOf = (model: string): AutoTier[] => TIERS.filter((t) => auto.tiers[t].includes(model));
const TOOL = { type: 'function', function: { name: 'lookup', description: 'Look something up', parameters: { type: 'object', properties: {} } } };

function body(p: Labelled): Record<string, unknown> {
  const pad = p.padWords ? ' ' + 'lorem ipsum dolor sit amet '.repeat(p.padWords / 5) : '';
  return {
    model: 'svc/auto',
    messages: [{ role: 'user', content: p.prompt + pad }],
    max_tokens: 8,
    ...(p.tools ? { tools: [TOOL] } : {}),
  };
}

describe('svc/auto smart router on a labelled prompt set', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' }, maxBodyBytes: 8 * 1024 * 1024 } });
  });
  afterAll(async () => t.close());

  it('picks a model of the expected tier; reports svc/auto in the body and bills the serving model', async () => {
    const confusion: Record<string, Record<string, number>> = {};
    let right = 0;
    for (const p of PROMPTS) {
      const res = await post(t, '/v1/chat/completions', body(p));
      expect(res.status, p.prompt).toBe(200);
      const served = res.headers.get('x-svc-model')!;
      const json = (await res.json()) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
      expect(json.model).toBe('svc/auto');
      const m = DEMO_CATALOG.find((x) => x.id === served)!;
      const u = json.usage;
      const expected = Math.round((u.prompt_tokens * m.pricing!.input + u.completion_tokens * m.pricing!.output) * 1000);
      expect(Math.round(Number(res.headers.get('x-svc-request-cost')) * 1e9)).toBe(expected);
      const got = tierOf(served).includes(p.tier) ? p.tier : (tierOf(served)[0] ?? 'other');
      confusion[p.tier] ??= {};
      confusion[p.tier]![got] = (confusion[p.tier]![got] ?? 0) + 1;
      if (got === p.tier) right++;
    }
    const lines = ['| expected \\ picked | ' + TIERS.join(' | ') + ' |', '|---|' + TIERS.map(() => '---').join('|') + '|'];
    for (const e of TIERS) lines.push(`| ${e} | ${TIERS.map((g) => confusion[e]?.[g] ?? 0).join(' | ')} |`);
    process.stdout.write(`svc/auto confusion (${right}/${PROMPTS.length} right):\n${lines.join('\n')}\n`);
    expect(right / PROMPTS.length).toBeGreaterThanOrEqual(0.85);
  });

  it('never exceeds the organization price ceiling and falls back only to models costing the same or less', async () => {
    await t.addOrg('org-ceiling', 50, { priceCeilingPerMTok: 5 });
    const k = await t.addKey({ orgId: 'org-ceiling' });
    for (const p of PROMPTS.filter((x) => x.tier === 'reasoning').slice(0, 4)) {
      const res = await post(t, '/v1/chat/completions', body(p), { authorization: `Bearer ${k.value}` });
      const served = DEMO_CATALOG.find((m) => m.id === res.headers.get('x-svc-model'))!;
      expect(served.pricing!.output).toBeLessThanOrEqual(5);
    }
    // Primary fails over: the fallback costs no more than the pick.
    t.sim.configure('/', { fault: '503', faultCount: 1 });
    const res = await post(t, '/v1/chat/completions', body(PROMPTS.find((x) => x.tier === 'simple')!));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-routing')).toBe('fallback:1');
    const [first, second] = auto.tiers.simple.map((id) => DEMO_CATALOG.find((m) => m.id === id)!);
    expect(res.headers.get('x-svc-model')).toBe(second!.id);
    expect(second!.pricing!.output).toBeLessThanOrEqual(first!.pricing!.output);
  });

  it('a streamed svc/auto answer reports svc/auto in every chunk', async () => {
    const res = await post(t, '/v1/chat/completions', { ...body(PROMPTS[0]!), stream: true });
    expect(res.status).toBe(200);
    const models = [...(await res.text()).matchAll(/"model":"([^"]+)"/g)].map((m) => m[1]);
    expect(models.length).toBeGreaterThan(1);
    expect(new Set(models)).toEqual(new Set(['svc/auto']));
  });

  it('the alias detail reveals no candidates', async () => {
    const res = await fetch(`${t.url}/v1/models/svc/auto`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'svc/auto', object: 'model', created: expect.any(Number), owned_by: 'svc' });
  });
});
