import { describe, expect, it } from 'vitest';
import type { WorkerPool } from '../../../src/pool/pool.js';
import { ScoreBatcher } from '../../../src/pool/score-batcher.js';

function fakePool(opts: { fail?: boolean; delayMs?: number } = {}) {
  const calls: string[][] = [];
  const tenants: string[] = [];
  const pool = {
    // Like piscina: a task rejects when its abort signal fires.
    run: ((_name: string, payload: { texts: string[] }, task: { tenant: string; signal?: AbortSignal }) => {
      const signal = task.signal;
      calls.push(payload.texts);
      tenants.push(task.tenant);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => (opts.fail ? reject(new Error('boom')) : resolve(payload.texts.map((x) => ({ len: x.length })))), opts.delayMs ?? 1);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason);
        });
      });
    }) as WorkerPool['run'],
  };
  return { pool, calls, tenants };
}

describe('ScoreBatcher', () => {
  it('sends every request of one event-loop turn as one pool task and hands each its own results', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    const [x, y, z] = await Promise.all([b.score(['a'], 'org-a'), b.score(['bb', 'ccc'], 'org-a'), b.score(['dddd'], 'org-a')]);
    expect(calls).toEqual([['a', 'bb', 'ccc', 'dddd']]);
    expect(x).toEqual([{ len: 1 }]);
    expect(y).toEqual([{ len: 2 }, { len: 3 }]);
    expect(z).toEqual([{ len: 4 }]);
  });

  it('splits a large turn into tasks of at most 64 texts', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    await Promise.all(Array.from({ length: 100 }, (_, i) => b.score([String(i)], 'org-a')));
    expect(calls.map((c) => c.length)).toEqual([64, 36]);
  });

  it('a failed or late task fails every request in it (the caller answers 503 unavailable)', async () => {
    const failing = new ScoreBatcher(fakePool({ fail: true }).pool, 1000);
    await expect(Promise.all([failing.score(['a'], 'org-a'), failing.score(['b'], 'org-a')])).rejects.toThrow('boom');
    const late = new ScoreBatcher(fakePool({ delayMs: 500 }).pool, 20);
    const started = Date.now();
    await expect(Promise.all([late.score(['a'], 'org-a'), late.score(['b'], 'org-a')])).rejects.toThrow('exceeded 20 ms');
    expect(Date.now() - started).toBeLessThan(300);
  });

  it('never mixes organizations in one task: each batch is a task of its own tenant', async () => {
    const { pool, calls, tenants } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    const [x, y, z] = await Promise.all([b.score(['a'], 'org-a'), b.score(['bb'], 'org-b'), b.score(['ccc'], 'org-a')]);
    expect(calls).toEqual([['a', 'ccc'], ['bb']]);
    expect(tenants).toEqual(['org-a', 'org-b']);
    expect([x, y, z]).toEqual([[{ len: 1 }], [{ len: 2 }], [{ len: 3 }]]);
  });

  it('requests in different turns go as separate tasks', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    await b.score(['x'], 'org-a');
    await b.score(['y'], 'org-a');
    expect(calls).toEqual([['x'], ['y']]);
  });
});
