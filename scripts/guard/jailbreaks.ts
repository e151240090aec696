/**
 * Derive the committed jailbreak prompts (data/guard/jailbreaks.jsonl) from the npm package promptfoo (MIT), whose
 * red-team strategy `promptInjections` carries ~100 community jailbreak prompts (DAN, Developer Mode, STAN, AIM,
 * role-play and two-persona wrappers) with a `__PROMPT__` slot for the request they wrap. The package is not a
 * dependency; fetch it once and point this script at its unpacked directory:
 *
 *   (cd /tmp && npm pack promptfoo@0.123.1 && tar xzf promptfoo-0.123.1.tgz)
 *   node dist/scripts/guard/jailbreaks.js /tmp/package
 *
 * The prompts are kept as published (exact duplicates dropped), the slot included: the trainer fills it
 * (examples.ts jailbreakRows). They are real attacks written by many people, unlike our generated rows.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { findProjectRoot } from '../../src/guard/paths.js';

const REGION = '//#region src/redteam/strategies/promptInjections/data.ts';

function extract(pkgDir: string): string[] {
  const dir = join(pkgDir, 'dist/src');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js')).sort()) {
    const src = readFileSync(join(dir, f), 'utf8');
    const at = src.indexOf(REGION);
    if (at < 0) continue;
    const open = src.indexOf('[', at);
    const close = src.indexOf('];\n//#endregion', open);
    // A literal array of string literals, evaluated in an empty context.
    const value: unknown = runInNewContext(src.slice(open, close + 1), Object.create(null) as object, { timeout: 1000 });
    if (!Array.isArray(value) || !value.every((s): s is string => typeof s === 'string')) throw new Error(`${f}: not a string array`);
    return value;
  }
  throw new Error(`no ${REGION} under ${dir}`);
}

const pkg = process.argv[2];
if (!pkg) {
  process.stderr.write('usage: node dist/scripts/guard/jailbreaks.js <unpacked promptfoo package dir>\n');
  process.exit(2);
}
const seen = new Set<string>();
const rows: string[] = [];
for (const text of extract(pkg)) {
  const t = text.trim();
  if (seen.has(t)) continue;
  seen.add(t);
  rows.push(JSON.stringify({ id: `jb-${String(rows.length + 1).padStart(3, '0')}`, text: t }));
}
const out = join(findProjectRoot(import.meta.url), 'data/guard/jailbreaks.jsonl');
writeFileSync(out, `${rows.join('\n')}\n`);
process.stdout.write(`${rows.length} prompts -> ${out}\n`);
