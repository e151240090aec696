import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/pool/pool.js';

// The piscina entry (workers/entry.cts, compiled by make build to dist/workers/entry.cjs) loads the task modules with
// import(). piscina require()s its filename first; on Node 20.19+ require() of the ES module entry loads it
// synchronously, and a process that exits during that load aborts (V8 fatal error, exit 134): 2 of 300 processes
// exiting 0-60 ms after starting a pool did, before this entry. At that rate no test here can show the old entry
// failing every run; these check that the gateway's pool uses the entry, that the entry never require()s the task
// modules, and that processes exiting while their threads load all exit cleanly.
const run = promisify(execFile);
const root = projectRoot();

describe('the worker entry', () => {
  it('is CommonJS and reaches the task modules only through import()', () => {
    const entry = readFileSync(join(root, 'dist', 'workers', 'entry.cjs'), 'utf8');
    expect(entry).toContain("import('./index.js')");
    expect(entry).not.toMatch(/require\(["']\.\/index/);
  });

  it('exports every task the task modules export, each as a function', async () => {
    const require = createRequire(import.meta.url);
    const entry = require(join(root, 'dist', 'workers', 'entry.cjs')) as Record<string, unknown>;
    const tasks = (await import(join(root, 'dist', 'workers', 'index.js'))) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(Object.keys(tasks).sort());
    for (const name of Object.keys(tasks)) expect(typeof entry[name]).toBe('function');
  });

  it('answers each named task through the gateway pool', async () => {
    const script = `
      const { WorkerPool } = await import(${JSON.stringify(join(root, 'dist/src/pool/pool.js'))});
      const pool = new WorkerPool({ min: 1, max: 1 });
      const t = await pool.run('thresholds', {}, { tenant: '' });
      const s = await pool.run('score', { texts: ['You are a helpful assistant.'] }, { tenant: 'org' });
      const n = await pool.run('countTokens', { texts: ['x '.repeat(20000)] }, { tenant: 'org' });
      await pool.close();
      console.log(JSON.stringify({ labels: Object.keys(t).length, scored: s.length, tokens: n }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    const out = JSON.parse(stdout) as { labels: number; scored: number; tokens: number };
    expect(out.labels).toBeGreaterThan(0);
    expect(out.scored).toBe(1);
    expect(out.tokens).toBeGreaterThan(10_000);
  }, 90_000);

  it('lets a process exit while its threads are still loading the tasks: every exit is clean', async () => {
    const script = (delayMs: number): string => `
      const { WorkerPool } = await import(${JSON.stringify(join(root, 'dist/src/pool/pool.js'))});
      new WorkerPool({ min: 2, max: 2 });
      setTimeout(() => process.exit(0), ${delayMs});`;
    const codes: number[] = [];
    // 40 processes, four at a time, exiting 0-78 ms after they started their pool (the threads' load takes ~30-50 ms).
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(
        [0, 1, 2, 3].map(async (i) => {
          try {
            await run(process.execPath, ['--input-type=module', '-e', script((batch * 4 + i) * 2)], { timeout: 30_000 });
            return 0;
          } catch (err) {
            return (err as { code?: number }).code ?? -1;
          }
        }),
      );
      codes.push(...results);
    }
    expect(codes.filter((c) => c !== 0)).toEqual([]);
  }, 120_000);
});
