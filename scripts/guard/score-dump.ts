/**
 * Scorer equivalence check: dumps the raw logits (8 per text, Float64 LE) of every training text, the test
 * fixtures' prompts and long texts composed from them (windowed path), so that two builds can be compared.
 *
 *   node dist/scripts/guard/score-dump.js --out /tmp/before.bin [--model PATH] [--scoring-only]
 *   node dist/scripts/guard/score-dump.js --compare /tmp/before.bin /tmp/after.bin
 *
 * The text list is deterministic (same inputs -> same order); --compare reports the count and the max absolute
 * logit difference, and exits 1 when it is 1e-9 or more.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModel, logitsOf } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { trainingPaths } from './data.js';
import { trainingExamples } from './examples.js';

const TOLERANCE = 1e-9;

/** Every string reachable from an exported value (arrays, plain objects). */
function collectStrings(x: unknown, out: string[], depth = 0): void {
  if (depth > 6) return;
  if (typeof x === 'string') {
    if (x.length > 0) out.push(x);
  } else if (Array.isArray(x)) {
    for (const e of x) collectStrings(e, out, depth + 1);
  } else if (typeof x === 'object' && x !== null) {
    for (const v of Object.values(x)) collectStrings(v, out, depth + 1);
  }
}

async function fixtureTexts(root: string): Promise<string[]> {
  const dirs = [join(root, 'dist/test/fixtures'), join(root, 'dist/test/fixtures/guard-holdout')];
  const out: string[] = [];
  for (const dir of dirs) {
    const files = readdirSync(dir).filter((f) => f.endsWith('.js') && (dir.endsWith('guard-holdout') || f.startsWith('guard-'))).sort();
    for (const f of files) {
      const mod: unknown = await import(pathToFileURL(join(dir, f)).href);
      collectStrings(mod, out);
    }
  }
  return out;
}

export async function allTexts(root: string): Promise<string[]> {
  const paths = trainingPaths(root);
  const train = trainingExamples(paths).map((e) => e.text);
  const fixtures = await fixtureTexts(root);
  const base = [...train, ...fixtures];
  // long texts (windowed scorer): consecutive texts joined until 1,000 / 4,000 / 10,000 / 30,000 chars
  const long: string[] = [];
  for (const target of [1_000, 4_000, 10_000, 30_000]) {
    const step = target >= 10_000 ? 97 : 13;
    for (let i = 0, made = 0; i < base.length && made < 400; made++) {
      let s = '';
      while (s.length < target && i < base.length) s += `${base[i++] ?? ''}${i % 3 === 0 ? '\n\n' : ' '}`;
      long.push(s);
      i += step;
    }
  }
  return [...base, ...long];
}

async function main(argv: string[]): Promise<void> {
  const ci = argv.indexOf('--compare');
  if (ci >= 0) {
    const a = readFileSync(argv[ci + 1] ?? '');
    const b = readFileSync(argv[ci + 2] ?? '');
    const fa = new Float64Array(a.buffer, a.byteOffset, a.length / 8);
    const fb = new Float64Array(b.buffer, b.byteOffset, b.length / 8);
    if (fa.length !== fb.length) throw new Error(`different lengths ${fa.length} vs ${fb.length}`);
    let max = 0;
    let at = -1;
    for (let i = 0; i < fa.length; i++) {
      const x = fa[i] ?? 0;
      const y = fb[i] ?? 0;
      const d = x === y ? 0 : Math.abs(x - y);
      if (!(d <= max)) {
        max = d;
        at = i;
      }
    }
    process.stdout.write(`${fa.length / 8} texts x 8 logits: max |diff| ${max.toExponential(3)}${at >= 0 ? ` (text ${at >> 3}, label ${at & 7})` : ''}\n`);
    if (!(max < TOLERANCE)) process.exitCode = 1;
    return;
  }
  const root = findProjectRoot(import.meta.url);
  const mi = argv.indexOf('--model');
  const model = loadModel(mi >= 0 ? (argv[mi + 1] ?? '') : defaultModelPath(root), { scoringOnly: argv.includes('--scoring-only') });
  const oi = argv.indexOf('--out');
  const texts = await allTexts(root);
  const out = new Float64Array(texts.length * 8);
  texts.forEach((t, i) => out.set(logitsOf(model, t), i * 8));
  writeFileSync(oi >= 0 ? (argv[oi + 1] ?? '') : '/tmp/guard-scores.bin', out);
  process.stdout.write(`${texts.length} texts (${texts.filter((t) => t.length > 512).length} windowed)\n`);
}

await main(process.argv.slice(2));
