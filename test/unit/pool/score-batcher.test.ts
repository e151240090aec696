import { describe, expect, it } from 'vitest';
import type { QueueSignal } from '../../../src/pool/fair-queue.js';
import type { WorkerPool } from '../../../src/pool/pool.js';
import { COLD_START_ALLOWANCE_MS, LINGER_MS, ScoreBatcher } from '../../../src/pool/score-batcher.js';

function fakePool(opts: { fail?: boolean; delayMs?: number } = {}) {
  const calls: string[][] = [];
  const tenants: string[] = [];
  const pool = {
    // Like piscina: a task rejects when its abort signal fires.
    run: ((_name: string, lazy: { texts: string[] } | (() => { texts: string[] }), task: { tenant: string; signal?: QueueSignal }) => {
      const signal = task.signal;
      const payload = typeof lazy === 'function' ? lazy() : lazy;
      calls.push(payload.texts);
      tenants.push(task.tenant);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => (opts.fail ? reject(new Error('boom')) : resolve(payload.texts.map((x) => ({ len: x.length })))), opts.delayMs ?? 1);
        signal?.once('abort', () => {
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

  it('requests of later turns join a task still queued in the pool (one task per free worker), each with its own deadline', async () => {
    // A pool with one slot: a task waits until the one before it has finished (each takes 200 ms), and its payload is read when it starts.
    const calls: string[][] = [];
    let busy: Promise<unknown> = Promise.resolve();
    const pool = {
      run: ((_name: string, lazy: () => { texts: string[] }, task: { tenant: string; signal?: QueueSignal }) => {
        const run = busy.then(() => {
          if (task.signal?.aborted) throw task.signal.reason;
          const { texts } = lazy();
          calls.push(texts);
          return new Promise((r) => setTimeout(() => r(texts.map((x) => ({ len: x.length }))), 200));
        });
        busy = run.catch(() => {});
        return run;
      }) as WorkerPool['run'],
    };
    const b = new ScoreBatcher(pool, 1000);
    const first = b.score(['a'], 'org-a');
    await new Promise((r) => setImmediate(r));
    const second = b.score(['bb'], 'org-a');
    await new Promise((r) => setImmediate(r));
    const third = b.score(['ccc'], 'org-a');
    await new Promise((r) => setImmediate(r));
    const other = b.score(['dddd'], 'org-b');
    expect(await Promise.all([first, second, third, other])).toEqual([[{ len: 1 }], [{ len: 2 }], [{ len: 3 }], [{ len: 4 }]]);
    // The first turn's task started at once; the next two turns waited behind it as one task; org-b had its own.
    expect(calls).toEqual([['a'], ['bb', 'ccc'], ['dddd']]);

  });

  it('deadlines are per request: one that joins a queued task late is not failed by an earlier one, and an expired one is not sent', async () => {
    // One slot; the first task finishes only when the test says so, later ones at once.
    const calls: string[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let busy: Promise<unknown> = Promise.resolve();
    const pool = {
      run: ((_name: string, lazy: () => { texts: string[] }, task: { tenant: string; signal?: QueueSignal }) => {
        const first = calls.length === 0;
        const run = busy.then(async () => {
          if (task.signal?.aborted) throw task.signal.reason;
          const { texts } = lazy();
          calls.push(texts);
          if (first) await gate;
          return texts.map((x) => ({ len: x.length }));
        });
        busy = run.catch(() => {});
        return run;
      }) as WorkerPool['run'],
    };
    const b = new ScoreBatcher(pool, 1000);
    const slow = b.score(['x'], 'org-c').then(() => 'ok', (e: unknown) => String(e)); // starts at once, held
    await new Promise((r) => setImmediate(r));
    const early = b.score(['y'], 'org-c').then(() => 'ok', (e: unknown) => String(e)); // queued, due at ~1000 ms
    await new Promise((r) => setTimeout(r, 500));
    const late = b.score(['zz'], 'org-c').then(() => 'ok', (e: unknown) => String(e)); // joins the queued task, due at ~1500 ms
    expect(await early).toMatch(/exceeded 1000 ms/);
    expect(await slow).toMatch(/exceeded 1000 ms/);
    release(); // the held task ends (its results are late); the queued one starts with the request still waiting
    expect(await late).toBe('ok');
    expect(calls).toEqual([['x'], ['zz']]);
  });

  it('an answer that arrived while the event loop was blocked past the deadline is used, not failed', async () => {
    // The worker's answer is a message on a port, read when the loop polls for I/O; deadline timers run before that
    // poll. Here the answer is posted at once and the loop is then blocked past the deadline, as a burst of
    // thousands of requests blocks it: the request must get its scores, not a 503.
    const { port1, port2 } = new MessageChannel();
    const answers = new Map<number, (v: Record<string, number>[]) => void>();
    port1.on('message', (m: { id: number; texts: string[] }) => answers.get(m.id)?.(m.texts.map((x) => ({ len: x.length }))));
    let id = 0;
    const pool = {
      run: ((_name: string, lazy: () => { texts: string[] }) => {
        const { texts } = lazy();
        const n = id++;
        const answered = new Promise<Record<string, number>[]>((r) => answers.set(n, r));
        port2.postMessage({ id: n, texts }); // the worker answers at once
        return answered;
      }) as unknown as WorkerPool['run'],
    };
    try {
      const b = new ScoreBatcher(pool, 20);
      const scored = b.score(['abc'], 'org-a').then((r) => r, (e: unknown) => String(e));
      await new Promise((r) => setImmediate(r)); // the task is dispatched and answered
      const until = performance.now() + 60;
      while (performance.now() < until); // the loop is blocked past the 20 ms deadline
      expect(await scored).toEqual([{ len: 3 }]);
      // Without an answer the deadline still fails the request.
      const never = new ScoreBatcher({ run: (() => new Promise(() => {})) as unknown as WorkerPool['run'] }, 20);
      expect(await never.score(['abc'], 'org-a').then(() => 'ok', (e: unknown) => String(e))).toMatch(/exceeded 20 ms/);
    } finally {
      port1.close();
    }
  });

  it('a cold pool (a scoring thread must start first) gets COLD_START_ALLOWANCE_MS on top of the deadline; a warm one does not', async () => {
    expect(COLD_START_ALLOWANCE_MS).toBeGreaterThanOrEqual(500);
    const { pool } = fakePool({ delayMs: 80 }); // the task answers after 80 ms: past the 20 ms deadline
    const outcome = (cold: boolean) =>
      new ScoreBatcher({ ...pool, scoringCold: cold }, 20).score(['abc'], 'org-a').then(
        (r) => r,
        (e: unknown) => String(e),
      );
    expect(await outcome(true)).toEqual([{ len: 3 }]);
    expect(await outcome(false)).toMatch(/exceeded 20 ms/);
  });

  it('requests nobody waits on (monitor) linger up to LINGER_MS and go to the pool as one task', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    let dispatched = 0;
    const first = b.score(['a'], 'org-a', { linger: true, onDispatch: () => dispatched++ });
    await new Promise((r) => setTimeout(r, 2)); // later turns: without the linger each would be its own task
    const second = b.score(['bb'], 'org-a', { linger: true });
    await new Promise((r) => setTimeout(r, 2));
    expect(calls).toEqual([]);
    expect(dispatched).toBe(0); // scoring time is measured from here on, not from the call
    const started = performance.now();
    expect(await Promise.all([first, second])).toEqual([[{ len: 1 }], [{ len: 2 }]]);
    expect(calls).toEqual([['a', 'bb']]);
    expect(dispatched).toBe(1);
    // Dispatched by the linger timer, not before (a timer may fire a millisecond early).
    expect(performance.now() - started).toBeGreaterThanOrEqual(LINGER_MS - 6);
  });

  it('a request that waits flushes the lingering ones with it at once', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    const lingering = b.score(['a'], 'org-a', { linger: true });
    await new Promise((r) => setTimeout(r, 2));
    const both = Promise.all([lingering, b.score(['bb'], 'org-a')]);
    await new Promise((r) => setImmediate(r)); // the next turn: dispatched, well before the linger timer
    expect(calls).toEqual([['a', 'bb']]);
    const [x, y] = await both;
    expect([x, y]).toEqual([[{ len: 1 }], [{ len: 2 }]]);
  });

  it('a full task of lingering texts goes at once, and a lingering request still fails at its own deadline', async () => {
    const { pool, calls } = fakePool();
    const b = new ScoreBatcher(pool, 1000);
    const all = Promise.all(Array.from({ length: 64 }, (_, i) => b.score([String(i)], 'org-a', { linger: true })));
    await new Promise((r) => setImmediate(r));
    expect(calls.map((c) => c.length)).toEqual([64]);
    await all;
    const late = new ScoreBatcher(fakePool({ delayMs: 500 }).pool, 30);
    const t0 = performance.now();
    await expect(late.score(['a'], 'org-a', { linger: true })).rejects.toThrow('exceeded 30 ms');
    expect(performance.now() - t0).toBeLessThan(300);
  });
});
