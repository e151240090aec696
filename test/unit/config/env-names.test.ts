import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_ENV_NAMES, unknownEnvNames } from '../../../src/config/env-names.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('SVC_* environment names', () => {
  it('lists every SVC_* name the source reads', () => {
    const read = new Set<string>();
    for (const file of [...sources('src'), ...sources('workers')]) {
      // SVC_FIELDS is a constant in control-fields.ts, not an environment variable.
      for (const m of readFileSync(file, 'utf8').matchAll(/'(SVC_[A-Z0-9_]+)'|env\.(SVC_[A-Z0-9_]+)/g)) read.add((m[1] ?? m[2])!);
    }
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((n) => !KNOWN_ENV_NAMES.includes(n))).toEqual([]);
  });

  it('names unknown SVC_* variables with the nearest known name, and ignores the rest of the environment', () => {
    const env = { SVC_REDIS_ULR: 'redis://x', SVC_PORT: '8080', PATH: '/bin', SVC_TOTALLY_NEW_THING: '1', svc_port: '1' };
    expect(unknownEnvNames(env)).toEqual([
      { name: 'SVC_REDIS_ULR', suggestion: 'SVC_REDIS_URL' },
      { name: 'SVC_TOTALLY_NEW_THING', suggestion: null },
    ]);
  });

  it('is empty for an environment of known names only', () => {
    expect(unknownEnvNames(Object.fromEntries(KNOWN_ENV_NAMES.map((n) => [n, '1'])))).toEqual([]);
  });
});
