import { describe, expect, it } from 'vitest';
import { Logger } from '../../../src/obs/logger.js';

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
