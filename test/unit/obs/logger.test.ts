import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isoNow, Logger } from '../../../src/obs/logger.js';

describe('Logger (pino)', () => {
  it('writes one JSON object per line with t, level, msg and the fields; undefined fields are left out', () => {
    const lines: string[] = [];
    const log = new Logger('info', true, (l) => lines.push(l));
    log.info('request', { request_id: 'r1', status: 200, key_alias: 'k', cost_nano_usd: 12, routing: undefined, error_code: null });
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(o).toEqual({ level: 'info', t: expect.any(String), msg: 'request', request_id: 'r1', status: 200, key_alias: 'k', cost_nano_usd: 12, error_code: null });
    expect(new Date(o.t as string).toISOString()).toBe(o.t);
    expect(lines[0]).not.toContain('\n');
  });

  it('drops lines below the configured level', () => {
    const lines: string[] = [];
    const log = new Logger('warn', true, (l) => lines.push(l));
    log.debug('d');
    log.info('i');
    log.warn('w', { a: 1 });
    log.error('e');
    expect(lines.map((l) => (JSON.parse(l) as { level: string }).level)).toEqual(['warn', 'error']);
  });

  it('text mode reads LEVEL msg k=v, skipping null and undefined', () => {
    const lines: string[] = [];
    const log = new Logger('debug', false, (l) => lines.push(l));
    log.debug('catalog reloaded', { models: 3, gone: null, none: undefined, ok: true });
    expect(lines).toEqual(['DEBUG catalog reloaded models=3 ok=true']);
  });
});

/** The built logger module, imported by the child processes below (their stdout is the real destination). */
const src = pathToFileURL(join(process.cwd(), 'dist/src/obs/logger.js')).href;

describe('Logger on stdout (asynchronous, batched)', () => {
  it('a lone line reaches stdout within the flush interval, not only at exit; lines buffered at exit are flushed', async () => {
    const script = `import { Logger } from '${src}';
      const l = new Logger('info', true);
      l.info('early', { n: 1 });
      setTimeout(() => { l.info('late', { n: 2 }); process.exit(0); }, 1500);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const t0 = Date.now();
    const seen: { msg: string; at: number }[] = [];
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        seen.push({ msg: (JSON.parse(buf.slice(0, i)) as { msg: string }).msg, at: Date.now() - t0 });
        buf = buf.slice(i + 1);
      }
    });
    await new Promise((r) => child.once('exit', r));
    expect(seen.map((s) => s.msg)).toEqual(['early', 'late']);
    expect(seen[0]!.at).toBeLessThan(1400); // before the process wrote 'late' and exited
  }, 20_000);

  it('a burst of lines spanning many batches arrives whole and in order, the last ones at exit', async () => {
    for (const json of [true, false]) {
      const script = `import { Logger } from '${src}';
        const l = new Logger('info', ${json});
        for (let n = 0; n < 5000; n++) l.info('line', { n, pad: 'x'.repeat(n % 300), word: 'naïve' });
        process.exit(0);`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const lines = r.stdout.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(5000);
      const ns = lines.map((l) => (json ? (JSON.parse(l) as { n: number }).n : Number(/ n=(\d+)/.exec(l)![1])));
      expect(ns).toEqual(Array.from({ length: 5000 }, (_, i) => i));
      expect(lines[4999]).toContain('naïve');
    }
  }, 20_000);

  it('a line bigger than a batch goes out whole, between the lines written before and after it', async () => {
    const script = `import { Logger } from '${src}';
      const l = new Logger('info', true);
      for (let n = 0; n < 300; n++) l.info('line', { n, pad: n === 150 ? 'é'.repeat(100000) : 'x'.repeat(n) });
      process.exit(0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const rows = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { n: number; pad: string });
    expect(rows.map((o) => o.n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(rows[150]!.pad).toBe('é'.repeat(100000));
    expect(rows[299]!.pad).toBe('x'.repeat(299));
  }, 20_000);

  it('stamps lines with the same text as toISOString, across second, minute and day boundaries', () => {
    const base = Date.UTC(2026, 10, 24, 23, 59, 58, 0);
    for (const t of [base, base + 7, base + 42, base + 999, base + 1000, base + 1001, base + 1999, base + 2000, base + 2345, 0, 5, 1_000_000_123]) {
      expect(isoNow(t)).toBe(new Date(t).toISOString());
    }
    const before = Date.now();
    const now = Date.parse(isoNow());
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
