/**
 * Micro-benchmark: CPU time per guard scoring call of the eval's ~2,000-token production-like prompt (built exactly
 * as scripts/guard/eval.ts builds it: benign corpus texts every 7th, until 2,000 o200k tokens). Prints p50 / p99 /
 * mean of process CPU time (user + system) per call, so other load on the machine matters less than for wall time.
 *
 *   node dist/bench/micro/guard-cpu.js            (N=2000 calls after 300 warm-up calls; ROUNDS=3)
 *   node --cpu-prof dist/bench/micro/guard-cpu.js
 */
import { loadModel, scoreTextArray } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { benignCorpus } from '../../scripts/guard/corpus.js';
import { countTokens } from '../../workers/tokenize.js';

const model = loadModel(process.env['SVC_GUARD_MODEL'] ?? defaultModelPath(findProjectRoot(import.meta.url)));
const corpus = benignCorpus();
let prompt = '';
for (let i = 0; (await countTokens({ texts: [prompt] })) < 2000; i += 7) prompt += `${corpus[i % corpus.length]?.text ?? ''}\n\n`;

let sink = 0;
for (let i = 0; i < 300; i++) sink += scoreTextArray(model, prompt)[0] ?? 0;
const n = Number(process.env['N'] ?? 2000);
const rounds = Number(process.env['ROUNDS'] ?? 3);
for (let r = 0; r < rounds; r++) {
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    sink += scoreTextArray(model, prompt)[0] ?? 0;
    const c1 = process.cpuUsage(c0);
    t[i] = (c1.user + c1.system) / 1000;
  }
  const mean = t.reduce((a, b) => a + b, 0) / n;
  t.sort();
  const q = (p: number): string => (t[Math.min(n - 1, Math.floor(p * n))] ?? 0).toFixed(3);
  process.stdout.write(`guard cpu ${prompt.length} chars: p50 ${q(0.5)} p99 ${q(0.99)} mean ${mean.toFixed(3)} ms [${Number.isFinite(sink) ? 'ok' : ''}]\n`);
}
