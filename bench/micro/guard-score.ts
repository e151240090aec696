/**
 * Micro-benchmark: guard scoring of one ~2,000-token production-like prompt (about 10,000 characters composed from
 * the benign corpus, as scripts/guard/eval.ts builds it), all eight heads, after warm-up. Prints p50/p99 of the
 * wall time per call, then of the same text scored in steps (src/guard/sliced.ts, as the event loop scores a document
 * between its I/O): the whole text's time and each step's. Needs models/guard-model.json (make guard-model).
 *   CHARS=3400 node dist/bench/micro/guard-score.js
 */
import { performance } from 'node:perf_hooks';
import { loadModel, scoreTextArray } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { benignCorpus } from '../../scripts/guard/corpus.js';
import { scoreInSteps } from '../../src/guard/sliced.js';
import { SLICE_CHARS } from '../../src/pool/sliced-scorer.js';

const CHARS = Number(process.env.CHARS ?? 10_000);
const model = loadModel(defaultModelPath(findProjectRoot(import.meta.url)));
const corpus = benignCorpus();
let prompt = '';
for (let i = 0; prompt.length < CHARS; i += 7) prompt += `${corpus[i % corpus.length]?.text ?? ''}\n\n`;

let sink = 0;
for (let i = 0; i < 500; i++) sink += scoreTextArray(model, prompt)[0] ?? 0; // warm-up
const n = Number(process.env.N ?? 3000);
const t = new Float64Array(n);
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  sink += scoreTextArray(model, prompt)[0] ?? 0;
  t[i] = performance.now() - t0;
}
const q = (a: Float64Array, p: number): string => (a[Math.min(a.length - 1, Math.floor(p * a.length))] ?? 0).toFixed(3);
t.sort();
process.stdout.write(`guard score ${prompt.length} chars: p50 ${q(t, 0.5)} ms p99 ${q(t, 0.99)} ms [${Number.isFinite(sink) ? 'ok' : ''}]\n`);

// In steps of SLICE_CHARS: the whole text's time and each step's (the longest the event loop is held at a time).
const steps: number[] = [];
const whole = new Float64Array(n);
for (let i = 0; i < n + 500; i++) {
  const gen = scoreInSteps(model, prompt, SLICE_CHARS);
  let total = 0;
  for (;;) {
    const t0 = performance.now();
    const r = gen.next();
    const dt = performance.now() - t0;
    total += dt;
    if (i >= 500) steps.push(dt);
    if (r.done === true) {
      sink += r.value.prompt_injection;
      break;
    }
  }
  if (i >= 500) whole[i - 500] = total;
}
whole.sort();
const st = Float64Array.from(steps).sort();
process.stdout.write(
  `in steps of ${SLICE_CHARS} chars: the text p50 ${q(whole, 0.5)} ms p99 ${q(whole, 0.99)} ms; ${(steps.length / n).toFixed(1)} steps each, ` +
    `a step p50 ${q(st, 0.5)} ms p99 ${q(st, 0.99)} ms max ${q(st, 1)} ms [${Number.isFinite(sink) ? 'ok' : ''}]\n`,
);
