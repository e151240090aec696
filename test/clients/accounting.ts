/**
 * What every client case asserts: the usage the simulator reported (read from the bodies it sent), the
 * usage and cost the gateway settled (ledger), and the usage the client library reported all agree.
 */
import { expect } from 'vitest';
import { costOf } from '../../src/billing/price.js';
import { DEMO_CATALOG } from '../../src/routing/demo-catalog.js';
import type { LedgerEntry } from '../../src/store/contract.js';
import type { TestGateway } from '../helpers/gateway.js';

export interface Tokens {
  input: number;
  output: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Usage in any provider's shape (OpenAI / Mistral, Anthropic, Gemini); the last one in a body wins. */
function usageOf(value: unknown): Tokens | null {
  if (!isObj(value)) return null;
  const u = value.usage;
  if (isObj(u) && 'prompt_tokens' in u) return { input: num(u.prompt_tokens), output: num(u.completion_tokens) };
  if (isObj(u) && 'input_tokens' in u) {
    return { input: num(u.input_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens), output: num(u.output_tokens) };
  }
  const g = value.usageMetadata;
  if (isObj(g)) return { input: num(g.promptTokenCount), output: num(g.candidatesTokenCount) + num(g.thoughtsTokenCount) };
  if (isObj(value.message)) return usageOf(value.message);
  return null;
}

/** The usage a simulated upstream body reported: the whole JSON, or the last usage-bearing SSE event. */
export function reportedUsage(body: string): Tokens | null {
  try {
    const whole = usageOf(JSON.parse(body));
    if (whole) return whole;
  } catch {
    // a stream: fall through to its events
  }
  let last: Tokens | null = null;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      last = usageOf(JSON.parse(line.slice(5))) ?? last;
    } catch {
      // [DONE] and other non-JSON data lines
    }
  }
  return last;
}

export interface Window {
  /** Request ids already in the ledger (settled before the case). */
  before: Set<string>;
}

/** Call before a client case: lets earlier requests settle, forgets the simulator's bodies, notes the ledger. */
export async function openWindow(t: TestGateway): Promise<Window> {
  // An earlier case's call (an aborted stream) may still be winding down: wait until nothing is held.
  for (let i = 0; i < 200 && (await t.store.getBalance(t.orgId)).held !== 0; i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 20));
  await t.gw.deps.settlement.flush();
  t.sim.reset();
  return { before: new Set((await t.store.listLedger(t.orgId)).map((e) => e.requestId)) };
}

export interface Accounted {
  sim: Tokens;
  calls: number;
  entries: LedgerEntry[];
}

/**
 * After a client case: every upstream answer's reported usage, summed, equals what the gateway settled
 * (tokens and the list-price cost of each call), one ledger entry per upstream call.
 */
export async function expectAccounted(t: TestGateway, w: Window, model: string): Promise<Accounted> {
  const bodies = Object.values(t.sim.stats().endpoints).flatMap((e) => e.recentResponses);
  const reported = bodies.map(reportedUsage).filter((u): u is Tokens => u !== null);
  let entries: LedgerEntry[] = [];
  // Settlement runs after the answer is written: wait (briefly) until every call of the case has settled.
  for (let i = 0; i < 50; i++) {
    await t.gw.deps.settlement.flush();
    entries = (await t.store.listLedger(t.orgId)).filter((e) => !w.before.has(e.requestId));
    if (entries.length >= reported.length) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(reported.length, 'upstream answers with usage').toBeGreaterThan(0);
  expect(entries.length, 'one settled entry per upstream answer').toBe(reported.length);
  const sim = reported.reduce((a, u) => ({ input: a.input + u.input, output: a.output + u.output }), { input: 0, output: 0 });
  const settled = entries.reduce(
    (a, e) => ({ input: a.input + e.inputTokens + e.cacheReadTokens + e.cacheWriteTokens, output: a.output + e.outputTokens }),
    { input: 0, output: 0 },
  );
  expect(settled).toEqual(sim);
  const pricing = DEMO_CATALOG.find((m) => m.id === model)!.pricing!;
  const expectedCost = reported.reduce((a, u) => a + costOf(pricing, { inputTokens: u.input, outputTokens: u.output, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }), 0);
  expect(entries.reduce((a, e) => a + e.cost, 0)).toBe(expectedCost);
  for (const e of entries) expect(e.model).toBe(model);
  return { sim, calls: reported.length, entries };
}
