import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { INLINE_COUNT_MAX_CHARS, WorkerPool } from '../../../src/pool/pool.js';

// Real piscina pools on dist/workers (make build) and the trained guard model (models/guard-model.json).
// Short texts are counted on the event loop; long ones on their own on-demand thread: the tokenizer is loaded there
// once, never in a scoring worker, it never holds up scoring, and the thread goes away when idle.
const tiktoken = get_encoding('o200k_base');
const LONG = 'A pasted document, line after line of it. '.repeat(Math.ceil(INLINE_COUNT_MAX_CHARS / 40));
const longTokens = tiktoken.encode_ordinary(LONG).length;
let pool: WorkerPool;
const IDLE_MS = 1_500;

beforeAll(async () => {
  pool = new WorkerPool({ min: 1, max: 1, tokenizerIdleMs: IDLE_MS });
  await pool.run('thresholds', {}, { tenant: '' }); // the scoring worker has its model
}, 30_000);

afterAll(async () => {
  await pool.close();
  tiktoken.free();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('tokenizer thread', () => {
  it('is not started for short texts: they are counted on the event loop, exactly', async () => {
    const inline = pool.inlineCounts;
    const started = pool.tasksStarted;
    expect(await pool.run('countTokens', { texts: ['hello world', 'another line of text'] }, { tenant: 'org-a' })).toBe(6);
    expect(pool.inlineCounts).toBe(inline + 1);
    expect(pool.tasksStarted).toBe(started + 1); // a refused request's "no work started" checks still see it
    expect(pool.threads).toBe(1);
  });

  it('sends a short text whose merges would hold the event loop (a run of letters without a space) to the thread', async () => {
    const run = 'a'.repeat(INLINE_COUNT_MAX_CHARS - 24);
    const inline = pool.inlineCounts;
    expect(await pool.run('countTokens', { texts: [run] }, { tenant: 'org-a' })).toBe(tiktoken.encode_ordinary(run).length);
    expect(pool.inlineCounts).toBe(inline);
    expect(pool.threads).toBe(2);
    for (let i = 0; i < 100 && pool.threads > 1; i++) await sleep(100);
  }, 30_000);

  it('starts on the first count of a long text, beside the one scoring worker, which keeps scoring while it starts', async () => {
    expect(pool.threads).toBe(1);
    const order: string[] = [];
    const counted = pool.run('countTokens', { texts: [LONG, 'hello'] }, { tenant: 'org-a' }).then((n) => {
      order.push('count');
      return n;
    });
    await pool.run('score', { texts: ['hello there'] }, { tenant: 'org-a' }).then(() => order.push('score'));
    expect(await counted).toBe(longTokens + 1);
    // The cold tokenizer thread starts and loads its tables; the score did not wait behind it.
    expect(order).toEqual(['score', 'count']);
    expect(pool.threads).toBe(2);
  }, 30_000);

  it('stops when idle and starts again for the next long count', async () => {
    for (let i = 0; i < 100 && pool.threads > 1; i++) await sleep(100);
    expect(pool.threads).toBe(1);
    expect(await pool.run('countTokens', { texts: [LONG] }, { tenant: 'org-a' })).toBe(longTokens);
    expect(pool.threads).toBe(2);
  }, 30_000);
});
