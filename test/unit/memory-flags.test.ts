import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_GROWING_PERCENT, GATEWAY_NODE_FLAGS, heapGrowingPercent, missingNodeFlags } from '../../src/memory-flags.js';
import { projectRoot } from '../../src/pool/pool.js';

describe('the node flags the gateway runs with (docs/memory.md)', () => {
  it('are passed by make run and npm start', () => {
    const root = projectRoot();
    const run = /^run:.*\n(?:#.*\n)*\t(.*)$/m.exec(readFileSync(join(root, 'Makefile'), 'utf8'))?.[1] ?? '';
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
    for (const line of [run, start]) {
      expect(line).toContain('dist/src/main.js');
      for (const f of GATEWAY_NODE_FLAGS) expect(line.indexOf(f)).toBeGreaterThan(-1);
      for (const f of GATEWAY_NODE_FLAGS) expect(line.indexOf(f)).toBeLessThan(line.indexOf('dist/src/main.js'));
    }
  });

  it('are found on the command line or in NODE_OPTIONS', () => {
    expect(missingNodeFlags([], '')).toEqual([...GATEWAY_NODE_FLAGS]);
    expect(missingNodeFlags([...GATEWAY_NODE_FLAGS], '')).toEqual([]);
    expect(missingNodeFlags([], `--enable-source-maps ${GATEWAY_NODE_FLAGS.join(' ')}`)).toEqual([]);
    expect(missingNodeFlags(['--max_semi_space_size=4', '--v8_pool_size=1'], '')).toEqual([]);
    expect(missingNodeFlags(['--max-semi-space-size=4'], '')).toEqual(['--v8-pool-size=1']);
  });
});

describe('the heap-growing percent the gateway sets on itself', () => {
  it('defaults to DEFAULT_HEAP_GROWING_PERCENT, takes SVC_HEAP_GROWING_PERCENT, and refuses anything but an integer 0..1000', () => {
    expect(heapGrowingPercent({})).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: ' ' })).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: '100' })).toBe(100);
    for (const bad of ['-1', '1001', '1.5', 'fifty']) {
      expect(() => heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: bad })).toThrow(/SVC_HEAP_GROWING_PERCENT must be an integer from 0/);
    }
  });
});
