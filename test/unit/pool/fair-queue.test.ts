import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../src/pool/fair-queue.js';
import { CallAbort } from '../../../src/upstream/call-abort.js';

/** A task that finishes when told to, recording its start. */
function gate(log: string[], name: string): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('FairQueue', () => {
  it('one tenant never holds more than its share; another tenant starts at once on a free slot', async () => {
    const q = new FairQueue(2, 1);
    const log: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) => gate(log, `a${i}`));
    const floodDone = flood.map((g) => q.run('org-a', g.task));
    await tick();
    expect(log).toEqual(['a0']); // org-a holds one of two slots; its backlog waits
    const b = gate(log, 'b0');
    const bDone = q.run('org-b', b.task);
    await tick();
    expect(log).toEqual(['a0', 'b0']); // no wait behind org-a's five queued tasks
    b.finish();
    expect(await bDone).toBe('b0');
    for (const g of flood) {
      g.finish();
      await tick();
    }
    expect(await Promise.all(floodDone)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(q.active).toBe(0);
    expect(q.queued).toBe(0);
  });

  it('serves waiting tenants round robin', async () => {
    const q = new FairQueue(1, 1);
    const log: string[] = [];
    const gates = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((n) => ({ n, g: gate(log, n) }));
    const all = gates.map(({ n, g }) => q.run(n[0]!, g.task));
    for (const { g } of gates) {
      await tick();
      g.finish();
    }
    // Finish order does not matter here: each finish frees the one slot for the next tenant in the ring.
    for (let i = 0; i < 6; i++) {
      await tick();
      for (const { g } of gates) g.finish();
    }
    await Promise.all(all);
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']); // a just had a turn: b and c go first
  });

  it('a queued task whose signal aborts leaves the queue and rejects; a running one is unaffected', async () => {
    const q = new FairQueue(1, 1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const running = q.run('a', first.task);
    const ac = new CallAbort();
    const queued = q.run('a', gate(log, 'never').task, ac);
    ac.abort(new Error('deadline'));
    await expect(queued).rejects.toThrow('deadline');
    expect(q.queued).toBe(0);
    first.finish();
    expect(await running).toBe('first');
    expect(log).toEqual(['first']);
  });
});
