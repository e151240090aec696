import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../src/pool/pool.js';

// Real piscina pools on dist/workers (make build) and the trained guard model (models/guard-model.json).
// Exact counts run on their own on-demand thread: the tokenizer is loaded once, never in a scoring worker,
// its load never holds up scoring, and the thread (with its ~50 MiB of ranks) goes away when idle.
let pool: WorkerPool;
const IDLE_MS = 1_500;

beforeAll(async () => {
  pool = new WorkerPool({ min: 1, max: 1, tokenizerIdleMs: IDLE_MS });
  await pool.run('thresholds', {}, { tenant: '' }); // the scoring worker has its model
}, 30_000);

afterAll(async () => {
  await pool.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('tokenizer thread', () => {
  it('starts on the first exact count, beside the one scoring worker, which keeps scoring while the tokenizer loads', async () => {
    expect(pool.threads).toBe(1);
    const order: string[] = [];
    const counted = pool.run('countTokens', { texts: ['hello world', 'another line of text'] }, { tenant: 'org-a' }).then((n) => {
      order.push('count');
      return n;
    });
    await pool.run('score', { texts: ['hello there'] }, { tenant: 'org-a' }).then(() => order.push('score'));
    expect(await counted).toBe(6);
    // The cold tokenizer takes hundreds of ms to load its ranks; the score did not wait behind it.
    expect(order).toEqual(['score', 'count']);
    expect(pool.threads).toBe(2);
  }, 30_000);

  it('stops when idle and starts again for the next count', async () => {
    for (let i = 0; i < 100 && pool.threads > 1; i++) await sleep(100);
    expect(pool.threads).toBe(1);
    expect(await pool.run('countTokens', { texts: ['hello world'] }, { tenant: 'org-a' })).toBe(2);
  }, 30_000);
});
