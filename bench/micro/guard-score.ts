/**
 * Micro-benchmark: guard scoring of one ~2,000-token production-like prompt (about 10,000 characters composed from
 * the benign corpus, as scripts/guard/eval.ts builds it), all eight heads, after warm-up. Prints p50/p99 of the
 * wall time per call. Needs models/guard-model.json (make guard-model).
 */
import { performance } from 'node:perf_hooks';
import { loadModel, scoreTextArray } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { benignCorpus } from '../../scripts/guard/corpus.js';

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
t.sort();
const q = (p: number): string => (t[Math.min(n - 1, Math.floor(p * n))] ?? 0).toFixed(3);
process.stdout.write(`guard score ${prompt.length} chars: p50 ${q(0.5)} ms p99 ${q(0.99)} ms [${Number.isFinite(sink) ? 'ok' : ''}]\n`);
