import { execFileSync } from 'node:child_process';
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
    expect(missingNodeFlags(['--max_semi_space_size=8', '--v8_pool_size=1'], '')).toEqual([]);
    expect(missingNodeFlags(['--max-semi-space-size=8'], '')).toEqual(['--v8-pool-size=1']);
    // Another value is the operator's choice, not a missing flag.
    expect(missingNodeFlags(['--max-semi-space-size=4', '--v8-pool-size=2'], '')).toEqual([]);
    expect(missingNodeFlags(['--max-semi-space'], '')).toEqual([...GATEWAY_NODE_FLAGS]);
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

  it('the gateway keeps WebAssembly on the baseline compiler once it applied its runtime flags (no TurboFan compile zones)', () => {
    // A hot WebAssembly function (as undici's HTTP parser is) is tiered up to TurboFan unless the flag is in force.
    const script = (apply: boolean): string => `
      ${apply ? `const { applyRuntimeHeapFlags } = await import(${JSON.stringify(join(projectRoot(), 'dist/src/memory-flags.js'))}); applyRuntimeHeapFlags({});` : ''}
      const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,0,32,0,32,1,106,11]);
      const { add } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
      let s = 0;
      // Until the tier-up is seen (a background compile: slower on a loaded machine), at most 20 rounds.
      for (let round = 0; round < 20 && !%IsTurboFanFunction(add); round++) {
        for (let i = 0; i < 2e6; i++) s = add(s, 1) | 0;
        await new Promise((r) => setTimeout(r, 100));
      }
      console.log(JSON.stringify({ baseline: %IsLiftoffFunction(add), optimised: %IsTurboFanFunction(add) }));`;
    const run = (apply: boolean): unknown =>
      JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script(apply)], { encoding: 'utf8' }));
    expect(run(false)).toEqual({ baseline: false, optimised: true }); // the check can see a tier-up
    expect(run(true)).toEqual({ baseline: true, optimised: false });
  });
});
