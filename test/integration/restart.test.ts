import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { startTestGateway } from '../helpers/gateway.js';
import { post } from '../helpers/refusal.js';

describe('embedded store: graceful shutdown flushes settlement; a clean restart keeps everything', () => {
  it('keeps orgs, keys, balances and the ledger across a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-restart-')), 'store.msgpack');
    const store = await createStore({ kind: 'memory', snapshotPath: path });
    // A long flush interval: only the shutdown flush can settle these requests.
    const t = await startTestGateway({ store, config: { guardrails: { mode: 'off' }, settlement: { batchSize: 10_000, flushMs: 60_000 } } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hi ${i}` }], max_tokens: 4 });
      expect(res.status).toBe(200);
      ids.push(res.headers.get('x-svc-request-id')!);
    }
    expect(t.gw.deps.settlement.pending).toBe(5);
    await t.close(); // gateway close flushes settlement, then the store writes its snapshot
    const reopened = await createStore({ kind: 'memory', snapshotPath: path });
    expect(await reopened.getOrg(t.orgId)).not.toBeNull();
    expect((await reopened.getKey(t.orgId, t.keyRecord.id))?.hash).toBe(t.keyRecord.hash);
    const ledger = await reopened.listLedger(t.orgId);
    expect(ledger.map((e) => e.requestId).sort()).toEqual([...ids].sort());
    const spent = ledger.reduce((s, e) => s + e.cost, 0);
    expect(spent).toBeGreaterThan(0);
    const bal = await reopened.getBalance(t.orgId);
    expect(bal.balance).toBe(100_000_000_000 - spent);
    expect(bal.held).toBe(0);
    await reopened.close();
  });
});

describe('graceful shutdown with requests in flight', () => {
  it('lets them complete and settles them before closing', async () => {
    const store = await createStore({ kind: 'memory', snapshotPath: null });
    const t = await startTestGateway({ store, config: { guardrails: { mode: 'off' }, settlement: { batchSize: 10_000, flushMs: 60_000 } } });
    t.sim.configure('/', { firstByteMs: 300 });
    const inflight = [
      post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'slow one' }], max_tokens: 4 }),
      post(t, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'slow two' }], max_tokens: 4, stream: true }),
    ];
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.gw.close();
    const responses = await Promise.all(inflight);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const ids = responses.map((r) => r.headers.get('x-svc-request-id')!);
    await Promise.all(responses.map((r) => r.text()));
    await closing;
    for (const id of ids) expect(await store.getLedgerEntry(t.orgId, id)).not.toBeNull();
    await store.close();
    await t.sim.close();
  });
});
