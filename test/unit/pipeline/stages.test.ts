/**
 * The preflight chain as data: the runner undoes exactly the stages that ran, in reverse; each stage that
 * takes something owns its undo (admit: leases, hold: the credit hold), and the others declare none.
 */
import { describe, expect, it } from 'vitest';
import type { ModelPricing } from '../../../src/config/schema.js';
import { keyRecord, newKeyValue } from '../../../src/keys/mint.js';
import { admitStage } from '../../../src/pipeline/admit.js';
import { authStage } from '../../../src/pipeline/authenticate.js';
import { decodeStage, jsonContentType } from '../../../src/pipeline/decode-stage.js';
import { Flow, TextFlow } from '../../../src/pipeline/flow.js';
import type { FrontEnd } from '../../../src/pipeline/front-end.js';
import { inspectStage, startInspectionStage } from '../../../src/pipeline/inspect.js';
import { coverableOutput, holdStage, MIN_CLAMPED_OUTPUT } from '../../../src/pipeline/reserve.js';
import { routeStage } from '../../../src/pipeline/route-stage.js';
import { deferRefusal, refuseDeferred, runStages, unwind, type Stage } from '../../../src/pipeline/stage.js';
import { GatewayError, isGatewayError } from '../../../src/errors/gateway-error.js';
import type { IncomingRequest } from '../../../src/server/types.js';
import type { AdmitRequest, HoldRequest, LimitScope, OrgRecord } from '../../../src/store/contract.js';

const req: IncomingRequest = { method: 'POST', path: '/v1/chat/completions', query: '', headers: new Map(), ip: '127.0.0.1', body: Buffer.from('{}'), startedAt: 0 };
const org: OrgRecord = { id: 'org-1', name: 'o', status: 'active', createdAt: 0, fallbacks: [], rpm: null, tpm: null, maxConcurrency: 2, priceCeilingPerMTok: null };

function flow(opts: { maxConcurrency?: number } = {}): Flow {
  const f = new Flow(req, '/v1/chat/completions', false);
  const key = keyRecord(org.id, 'k', newKeyValue('sk-svc-'), { maxConcurrency: opts.maxConcurrency });
  f.st.principal = { key, org: { ...org, maxConcurrency: opts.maxConcurrency ?? null }, team: null, alias: 'sk-...', legacy: false };
  return f;
}

function quietLog(): { warn: (msg: string) => void; warnings: string[] } {
  const warnings: string[] = [];
  return { warn: (msg: string) => void warnings.push(msg), warnings };
}

describe('runStages / unwind', () => {
  it('undoes only the stages that completed, in reverse order, once', async () => {
    const log: string[] = [];
    const stage = (name: string, fail = false): Stage<Flow> => ({
      name,
      run: () => {
        if (fail) throw new Error(`${name} refused`);
        log.push(`run ${name}`);
      },
      undo: async () => void log.push(`undo ${name}`),
    });
    const chain = [stage('a'), { name: 'no-undo', run: () => void log.push('run no-undo') }, stage('b'), stage('c', true), stage('d')];
    const f = flow();
    await expect(runStages(chain, f)).rejects.toThrow('c refused');
    expect(f.passed).toBe(3);
    await unwind(chain, f);
    await unwind(chain, f);
    expect(log).toEqual(['run a', 'run no-undo', 'run b', 'undo b', 'undo a']);
    expect(f.passed).toBe(0);
  });
});

describe('deferred refusals', () => {
  it('a validation refusal before admission is kept, later validators skipped, and given after admission', async () => {
    const log: string[] = [];
    const f = new TextFlow(req, { route: '/v1/chat/completions', allowXApiKey: false } as FrontEnd);
    const chain: Stage<TextFlow>[] = [
      deferRefusal({ name: 'decode', run: () => { throw new GatewayError('invalid_request', { message: 'bad body' }); } }, isGatewayError),
      deferRefusal({ name: 'resolve', run: () => void log.push('resolve') }, isGatewayError),
      { name: 'admit', run: () => void log.push('admit'), undo: async () => void log.push('release') },
      refuseDeferred,
      { name: 'never', run: () => void log.push('never') },
    ];
    await expect(runStages(chain, f)).rejects.toMatchObject({ code: 'invalid_request' });
    await unwind(chain, f);
    expect(log).toEqual(['admit', 'release']);
  });

  it('a non-refusal error (a bug) is not deferred', async () => {
    const f = new TextFlow(req, { route: '/v1/chat/completions', allowXApiKey: false } as FrontEnd);
    const stage = deferRefusal<TextFlow>({ name: 'decode', run: () => { throw new TypeError('boom'); } }, isGatewayError);
    await expect(runStages([stage], f)).rejects.toThrow('boom');
  });
});

describe('admit stage', () => {
  function store(result: { ok: true } | { ok: false; kind: 'rpm'; source: 'key'; retryAfterMs: number }) {
    const calls = { admit: [] as AdmitRequest[], release: [] as { requestId: string; scopes: Pick<LimitScope, 'source' | 'id'>[] }[] };
    return {
      calls,
      store: {
        admit: async (r: AdmitRequest) => (calls.admit.push(r), result),
        releaseLeases: async (_org: string, requestId: string, scopes: Pick<LimitScope, 'source' | 'id'>[]) => void calls.release.push({ requestId, scopes }),
        getTeam: async () => null,
      },
    };
  }
  const limits = { userRpm: null, userTpm: null };

  it('admits with the flow tokens; its undo releases the leases it took, once', async () => {
    const s = store({ ok: true });
    const stage = admitStage({ store: s.store, auth: { invalidate: () => {} }, limits, leaseTtlMs: 1000, log: quietLog() });
    const f = flow({ maxConcurrency: 1 });
    f.admitTokens = 42;
    await stage.run(f);
    expect(s.calls.admit[0]).toMatchObject({ orgId: 'org-1', requestId: f.st.id, tokens: 42 });
    expect(f.st.scopes.map((x) => x.source)).toEqual(['key', 'plan']);
    await stage.undo!(f);
    await stage.undo!(f);
    expect(s.calls.release).toEqual([{ requestId: f.st.id, scopes: [expect.objectContaining({ source: 'key' }), expect.objectContaining({ source: 'plan' })] }]);
    expect(f.st.scopes).toEqual([]);
  });

  it('no concurrency ceiling, no lease: the undo makes no store call', async () => {
    const s = store({ ok: true });
    const stage = admitStage({ store: s.store, auth: { invalidate: () => {} }, limits, leaseTtlMs: 1000, log: quietLog() });
    const f = flow();
    await stage.run(f);
    await stage.undo!(f);
    expect(s.calls.release).toEqual([]);
  });

  it('a refusal takes nothing: scopes stay empty and the undo has nothing to give back', async () => {
    const s = store({ ok: false, kind: 'rpm', source: 'key', retryAfterMs: 1500 });
    const stage = admitStage({ store: s.store, auth: { invalidate: () => {} }, limits, leaseTtlMs: 1000, log: quietLog() });
    const f = flow({ maxConcurrency: 1 });
    await expect(stage.run(f)).rejects.toMatchObject({ code: 'rate_limit_exceeded', headers: { 'x-svc-limit-source': 'key', 'retry-after': '2' } });
    await stage.undo!(f);
    expect(s.calls.release).toEqual([]);
  });

  it('a failed release is logged, never thrown (leases expire on their own)', async () => {
    const s = store({ ok: true });
    const log = quietLog();
    const failing = { ...s.store, releaseLeases: async () => Promise.reject(new Error('down')) };
    const stage = admitStage({ store: failing, auth: { invalidate: () => {} }, limits, leaseTtlMs: 1000, log });
    const f = flow({ maxConcurrency: 1 });
    await stage.run(f);
    await expect(stage.undo!(f)).resolves.toBeUndefined();
    expect(log.warnings).toHaveLength(1);
  });
});

describe('hold stage', () => {
  const pricing: ModelPricing = { input: 1, output: 4 };
  function textFlow(maxTokens: number | null): TextFlow {
    const fe = { route: '/v1/chat/completions', allowXApiKey: false } as FrontEnd;
    const f = new TextFlow(req, fe);
    f.st.principal = flow().st.principal;
    f.p = { model: 'm', stream: false, maxTokens, n: 1, user: null, texts: ['hello'], untrusted: [true], messageCount: 1, clientWantsStreamUsage: false, canonical: () => { throw new Error('unused'); }, passthrough: null };
    f.size = { bytes: 5, messages: 1 };
    f.maxOut = maxTokens ?? 10_000;
    f.chain = [{ chainIndex: 0, model: { pricing } as never, endpoint: {} as never, adapter: {} as never, key: 'e' }];
    return f;
  }
  function store(available: number) {
    const holds: HoldRequest[] = [];
    const released: string[] = [];
    return {
      holds,
      released,
      store: {
        hold: async (r: HoldRequest) => (holds.push(r), r.amount <= available ? { ok: true as const, available: available - r.amount } : { ok: false as const, source: 'plan' as const, available }),
        releaseHold: async (_org: string, id: string) => void released.push(id),
        scopeSpend: async () => 0,
        getTeam: async () => null,
      },
    };
  }
  const pool = { run: (async () => 5) as never };

  it('its undo releases the hold it placed, once; nothing held, nothing released', async () => {
    const s = store(1e12);
    const stage = holdStage({ store: s.store, pool, holdTtlMs: 1000, log: quietLog() });
    const f = textFlow(100);
    await stage.run(f);
    expect(f.st.held).toBeGreaterThan(0);
    await stage.undo!(f);
    await stage.undo!(f);
    expect(s.released).toEqual([f.st.id]);
    expect(f.st.held).toBe(0);
    const none = textFlow(100);
    await stage.undo!(none);
    expect(s.released).toHaveLength(1);
  });

  it('an unstated output cap is clamped to what the balance covers; a stated one is refused instead', async () => {
    const full = coverableOutput([pricing], 8, 1, Number.MAX_SAFE_INTEGER, 10_000);
    expect(full).toBe(10_000);
    // nano-USD: 12 input tokens (5 counted + 7 framing) and 100 output tokens at $1 / $4 per M
    const room = 12 * 1000 + 100 * 4000;
    const s = store(room);
    const stage = holdStage({ store: s.store, pool, holdTtlMs: 1000, log: quietLog() });
    const f = textFlow(null);
    await stage.run(f);
    expect(f.clamped).toBe(100);
    expect(f.maxOut).toBe(100);
    expect(f.st.maxTokensClamped).toBe(100);
    expect(f.st.held).toBe(room);
    const stated = textFlow(500);
    await expect(stage.run(stated)).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(stated.st.held).toBe(0);
  });

  it('refuses when not even the minimal answer fits', async () => {
    const s = store(12 * 1000 + (MIN_CLAMPED_OUTPUT - 1) * 4000);
    const stage = holdStage({ store: s.store, pool, holdTtlMs: 1000, log: quietLog() });
    const f = textFlow(null);
    await expect(stage.run(f)).rejects.toMatchObject({ code: 'insufficient_credits', headers: { 'x-svc-limit-source': 'plan' } });
    expect(f.clamped).toBeNull();
  });
});

describe('stages that take nothing declare no undo', () => {
  it.each([
    ['content-type', jsonContentType],
    ['authenticate', authStage({ authenticate: async () => Promise.reject(new Error('unused')) })],
    ['decode', decodeStage(64)],
    ['route', routeStage({ catalog: () => Promise.reject(new Error('unused')) as never, health: {} as never, pool: { run: (async () => 0) as never } })],
    ['start-inspection', startInspectionStage({ guardrails: {} as never, scorer: { score: async () => [] }, thresholds: () => ({}) as never, metrics: {} as never, log: quietLog() as never })],
    ['inspect', inspectStage({ guardrails: {} as never, scorer: { score: async () => [] }, thresholds: () => ({}) as never, metrics: {} as never, log: quietLog() as never })],
  ] as [string, Stage<TextFlow>][])('%s', (name, stage) => {
    expect(stage.name).toBe(name);
    expect(stage.undo).toBeUndefined();
  });
});
