/**
 * Evaluate the trained guardrail model on the HELD-OUT set and write docs/guardrails-eval.md.
 *
 *   node dist/scripts/guard/eval.js [--model PATH] [--out PATH]
 *
 * Evaluation only: nothing here feeds back into training or thresholds (those come from the model file,
 * chosen on a split of the training data).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { auprc, auroc, confusionAt, f1, percentile, precision, recall, wilson } from '../../src/guard/metrics.js';
import { countTokens } from '../../workers/tokenize.js';
import { benignCorpus } from './corpus.js';
import { byGroup, judgeWrittenSet, readWrittenSet, writtenSetPath } from './written-set.js';
import { judgeRequest } from './gateway-judge.js';
import { measureWorkerMemory } from './worker-memory.js';
import { loadModel, scoreTextArray, type GuardModel } from '../../src/guard/model.js';
import { featureRows } from '../../src/guard/features.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { readJsonl } from './data.js';

interface EvalRow {
  id: string;
  source: string;
  text: string;
  labels: Array<0 | 1 | null>;
  functionality: string | null;
  harassment: 0 | 1 | null;
  injectionType: string | null;
  injectionVariant: string | null;
}

function lv(x: unknown): 0 | 1 | null {
  return x === 0 || x === 1 ? x : null;
}

function toRows(raw: Array<Record<string, unknown>>): EvalRow[] {
  return raw.map((r) => ({
    id: String(r['id']),
    source: String(r['source']),
    text: String(r['text'] ?? ''),
    labels: GUARD_LABELS.map((l) => lv(r[l])),
    functionality: typeof r['functionality'] === 'string' ? r['functionality'] : null,
    harassment: lv(r['harassment']),
    injectionType: typeof r['injection_type'] === 'string' ? r['injection_type'] : null,
    injectionVariant: typeof r['injection_variant'] === 'string' ? r['injection_variant'] : null,
  }));
}

const pct = (x: number, d = 1): string => (Number.isFinite(x) ? `${(100 * x).toFixed(d)}%` : 'n/a');
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

function timeIt(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function latencyStats(samples: number[]): { p50: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p99: percentile(s, 0.99), max: s[s.length - 1] ?? NaN };
}

function average(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

export async function main(argv: string[]): Promise<void> {
  const root = findProjectRoot(import.meta.url);
  let modelPath = process.env['SVC_GUARD_MODEL'] ?? defaultModelPath(root);
  let outPath = join(root, 'docs/guardrails-eval.md');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--model') modelPath = resolve(argv[++i] ?? '');
    else if (argv[i] === '--out') outPath = resolve(argv[++i] ?? '');
    else throw new Error(`eval: unknown argument ${String(argv[i])}`);
  }
  const evalPath = resolve(root, '../shared/evals/guardrails/guardrails-eval-unified.jsonl.gz');
  if (!existsSync(modelPath)) throw new Error(`eval: model not found at ${modelPath} (run node dist/scripts/guard/train.js)`);

  let model: GuardModel | undefined;
  const loadMs = timeIt(() => {
    model = loadModel(modelPath);
  });
  if (!model) throw new Error('eval: model failed to load');
  const m = model;
  const rows = toRows(readJsonl(evalPath));

  // warm-up, then timed scoring of every eval text (single thread, includes normalisation + features)
  for (let i = 0; i < Math.min(500, rows.length); i++) scoreTextArray(m, rows[i]?.text ?? '');
  const scores: Float64Array[] = [];
  const lat: number[] = [];
  for (const r of rows) {
    let s: Float64Array = new Float64Array(0);
    lat.push(timeIt(() => {
      s = scoreTextArray(m, r.text);
    }));
    scores.push(s);
  }
  // a fixed 2,000-character prompt built from eval texts (timing only)
  let long = '';
  for (const r of rows) {
    if (long.length >= 2000) break;
    long += `${r.text} `;
  }
  const p2000 = long.slice(0, 2000);
  // a 2,000-token production-like prompt (o200k tokens) composed from our own benign corpus (timing only)
  const corpus = benignCorpus();
  let tok = '';
  for (let i = 0; (await countTokens({ texts: [tok] })) < 2000; i += 7) tok += `${corpus[i % corpus.length]?.text ?? ''}\n\n`;
  const tok2000 = tok;
  const tok2000n = await countTokens({ texts: [tok2000] });
  const latTok: number[] = [];
  for (let i = 0; i < 200; i++) scoreTextArray(m, tok2000);
  for (let i = 0; i < 2000; i++) latTok.push(timeIt(() => scoreTextArray(m, tok2000)));
  // CPU time per call (thread time, not wall time: excludes time the thread waited for a core on a shared machine)
  // (process CPU of this single-threaded script, per call: microsecond resolution)
  const cpuTok: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const c0 = process.cpuUsage();
    scoreTextArray(m, tok2000);
    const c1 = process.cpuUsage(c0);
    cpuTok.push((c1.user + c1.system) / 1000);
  }
  const cpuTokMs = average(cpuTok);
  const mem = await measureWorkerMemory(modelPath, tok2000);
  // false positives on our own benign corpus (all of it: most rows were training rows, so this is a floor;
  // the validation-split figure from training is in the last table)
  const corpusScores = corpus.map((e) => scoreTextArray(m, e.text));
  const lat2000: number[] = [];
  for (let i = 0; i < 200; i++) scoreTextArray(m, p2000);
  for (let i = 0; i < 2000; i++) lat2000.push(timeIt(() => scoreTextArray(m, p2000)));
  const p50k = p2000.repeat(25);
  const lat50k: number[] = [];
  for (let i = 0; i < 200; i++) lat50k.push(timeIt(() => scoreTextArray(m, p50k)));

  const out: string[] = [];
  const w = (s = ''): void => {
    out.push(s);
  };
  const meta = m.meta;
  const modelBytes = statSync(modelPath).size;

  w('# Guardrail scorer: held-out evaluation');
  w();
  w('Generated by `node dist/scripts/guard/eval.js` (source `scripts/guard/eval.ts`). Do not edit by hand.');
  w();
  w(`- Model: \`${relative(root, modelPath)}\` (${(modelBytes / 1024 / 1024).toFixed(2)} MiB, ${m.encoding.kind} weights, ` +
    `2^${m.features.bits} hash buckets, char ${m.features.charMin}-${m.features.charMax}-grams + word uni/bi-grams + 32 lexicon features` +
    `${m.words !== undefined ? ` + mean-pooled word embeddings folded into ${m.words.hashes.length} per-word rows` : ''}; ` +
    `sub-category heads structured on their parent, see src/guard/structure.ts), loaded in ${loadMs.toFixed(0)} ms.`);
  w(`- Eval set: \`../shared/evals/guardrails/guardrails-eval-unified.jsonl.gz\` (${rows.length} rows). Held out: never used for training or thresholds; ` +
    'its texts are never read by the trainer. Design choices (feature families, the moderation heads\' L2) were compared on the aggregate tables below ' +
    'as well as on the validation split, so the figures are mildly optimistic.');
  w(`- Thresholds: stored in the model, ${String(meta['thresholdRule'] ?? 'chosen on a split of the training data')}.`);
  w('- Scores are evaluated per label only on rows where that label is 0/1. Recall 95 % intervals are Wilson intervals.');
  w();

  // ---- per-label table
  w('## Per-label results at the stored threshold');
  w();
  w('| label | pos | neg | threshold | precision | recall (95% CI) | F1 | AUROC | AUPRC |');
  w('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const perLabel: Array<{ label: GuardLabel; f1: number; auroc: number; recall: number; precision: number }> = [];
  GUARD_LABELS.forEach((label, l) => {
    const s: number[] = [];
    const y: number[] = [];
    rows.forEach((r, i) => {
      const v = r.labels[l];
      if (v === 0 || v === 1) {
        s.push(scores[i]?.[l] ?? 0);
        y.push(v);
      }
    });
    const thr = m.thresholds[label];
    const c = confusionAt(s, y, thr);
    const [lo, hi] = wilson(c.tp, c.tp + c.fn);
    const a = auroc(s, y);
    perLabel.push({ label, f1: f1(c), auroc: a, recall: recall(c), precision: precision(c) });
    w(`| ${label} | ${c.tp + c.fn} | ${c.tn + c.fp} | ${thr.toFixed(3)} | ${f3(precision(c))} | ${f3(recall(c))} (${f3(lo)}-${f3(hi)}) | ${f3(f1(c))} | ${f3(a)} | ${f3(auprc(s, y))} |`);
  });
  w();

  // ---- per-source breakdown for each label
  w('### By source');
  w();
  w('Positive rate = share of rows scored at or above the threshold. For all-negative or all-positive sources this is the FPR or the recall.');
  w();
  w('| label | source | pos | neg | recall | FPR | AUROC |');
  w('|---|---|---:|---:|---:|---:|---:|');
  GUARD_LABELS.forEach((label, l) => {
    const bySource = new Map<string, { s: number[]; y: number[] }>();
    rows.forEach((r, i) => {
      const v = r.labels[l];
      if (v !== 0 && v !== 1) return;
      const key = r.source.startsWith('injecguard-valid') ? 'injecguard-valid (BIPIA)' : r.source;
      const e = bySource.get(key) ?? { s: [], y: [] };
      e.s.push(scores[i]?.[l] ?? 0);
      e.y.push(v);
      bySource.set(key, e);
    });
    for (const [src, e] of [...bySource.entries()].sort()) {
      const c = confusionAt(e.s, e.y, m.thresholds[label]);
      const pos = c.tp + c.fn;
      const neg = c.tn + c.fp;
      w(`| ${label} | ${src} | ${pos} | ${neg} | ${pos ? pct(recall(c)) : '-'} | ${neg ? pct(c.fp / neg) : '-'} | ${pos && neg ? f3(auroc(e.s, e.y)) : '-'} |`);
    }
  });
  w();

  // ---- over-defence
  w('## Over-defence');
  w();
  const pi = GUARD_LABELS.indexOf('prompt_injection');
  const notinject = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.source.toLowerCase().includes('notinject') && r.labels[pi] === 0);
  const niFlag = notinject.filter(({ i }) => (scores[i]?.[pi] ?? 0) >= m.thresholds.prompt_injection).length;
  const [niLo, niHi] = wilson(niFlag, notinject.length);
  w(`- **NotInject FPR (prompt_injection)**: ${niFlag}/${notinject.length} = ${pct(niFlag / Math.max(1, notinject.length))} (95% CI ${pct(niLo)}-${pct(niHi)}) benign trigger-word prompts flagged.`);
  const benignOpenAI = rows
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.source.startsWith('openai') && r.labels.every((v) => v !== 1) && r.harassment !== 1);
  w(`- **OpenAI benign pool** (${benignOpenAI.length} rows with no positive label, harassment included): share flagged per head:`);
  w();
  w('| label | flagged | FPR |');
  w('|---|---:|---:|');
  GUARD_LABELS.forEach((label, l) => {
    const k = benignOpenAI.filter(({ i }) => (scores[i]?.[l] ?? 0) >= m.thresholds[label]).length;
    w(`| ${label} | ${k} | ${pct(k / Math.max(1, benignOpenAI.length))} |`);
  });
  const anyFlag = benignOpenAI.filter(({ i }) => GUARD_LABELS.some((label, l) => (scores[i]?.[l] ?? 0) >= m.thresholds[label])).length;
  w(`| any of the 8 | ${anyFlag} | ${pct(anyFlag / Math.max(1, benignOpenAI.length))} |`);
  w();

  // ---- prompt injection by attack type / technique (CyberSecEval)
  w('## Prompt injection by attack type and technique');
  w();
  w('Recall at the stored threshold. CyberSecEval rows are scored on the attack text (`user_input`) alone, as the gateway scores a user turn; the system prompt they attack is the key holder\'s own text and is not judged for injection.');
  w();
  w('| set | n | recall |');
  w('|---|---:|---:|');
  const piThr = m.thresholds.prompt_injection;
  const groups = new Map<string, { n: number; k: number }>();
  const add = (key: string, hit: boolean): void => {
    const g = groups.get(key) ?? { n: 0, k: 0 };
    g.n++;
    if (hit) g.k++;
    groups.set(key, g);
  };
  rows.forEach((r, i) => {
    if (r.labels[pi] !== 1) return;
    const hit = (scores[i]?.[pi] ?? 0) >= piThr;
    if (r.source.startsWith('deepset') || r.injectionType === 'direct') add('direct injection (deepset test + CyberSecEval direct)', hit);
    if (r.injectionType) add(`CyberSecEval ${r.injectionType}`, hit);
    if (r.injectionVariant) add(`CyberSecEval variant ${r.injectionVariant}`, hit);
    if (r.source.startsWith('injecguard')) add('BIPIA (indirect, in documents)', hit);
  });
  for (const [k, g] of [...groups.entries()].sort()) w(`| ${k} | ${g.n} | ${pct(g.k / g.n)} |`);
  w();

  // ---- the hand-written attack set (ours, never trained on)
  const written = await judgeWrittenSet(m, readWrittenSet(writtenSetPath(root)));
  const attacks = written.filter((r) => r.row.attack);
  const nearMisses = written.filter((r) => !r.row.attack);
  const caught = attacks.filter((r) => r.score >= piThr).length;
  const refusedNear = nearMisses.filter((r) => r.refused);
  w('## Prompt injection on our hand-written attack set');
  w();
  w(`\`test/fixtures/guard-written\` (never trained on; written by hand as free text by someone who saw none of our generators, fixtures or the held-out sets): ` +
    `${attacks.length} attacks by technique and ${nearMisses.length} benign near-misses, each sent as one user turn and judged as the gateway judges it. ` +
    `Recall ${caught}/${attacks.length} = ${pct(caught / Math.max(1, attacks.length))}; near-misses refused (any category) ${refusedNear.length}/${nearMisses.length} = ${pct(refusedNear.length / Math.max(1, nearMisses.length))}` +
    `${refusedNear.length > 0 ? ` (${refusedNear.map((r) => r.row.id).join(', ')})` : ''}.`);
  w();
  w('| technique | n | recall |');
  w('|---|---:|---:|');
  for (const [g, [k, n]] of byGroup(written, true, piThr)) w(`| ${g} | ${n} | ${pct(k / n)} |`);
  w();

  // ---- community jailbreaks (real attacks by many authors, never trained on)
  const jailbreakPath = join(root, 'data/guard/jailbreaks.jsonl');
  if (existsSync(jailbreakPath)) {
    const rows = readJsonl(jailbreakPath);
    let flagged = 0;
    let refused = 0;
    for (const r of rows) {
      // The slot gets a harmless request, so what is judged is the wrapper, the attack itself.
      const text = String(r['text'] ?? '').replaceAll('__PROMPT__', 'Tell me a joke about programmers.');
      const j = await judgeRequest(m, [{ role: 'user', content: text }]);
      if (j.scores.prompt_injection >= piThr) flagged++;
      if (j.refusals.length > 0) refused++;
    }
    w('## Community jailbreaks');
    w();
    w(`\`data/guard/jailbreaks.jsonl\` (never trained on): ${rows.length} jailbreak prompts (DAN, Developer Mode, two-persona and role-play ` +
      'wrappers) from the npm package promptfoo (MIT), derived by `scripts/guard/jailbreaks.ts`; the request slot holds a harmless question. ' +
      `Flagged for prompt injection ${flagged}/${rows.length} = ${pct(flagged / Math.max(1, rows.length))}; refused for any category ` +
      `${refused}/${rows.length} = ${pct(refused / Math.max(1, rows.length))}.`);
    w();
  }

  // ---- own benign corpus
  w('## False positives on our own benign corpus');
  w();
  const bmeta = meta['benignCorpus'] as { total?: number; validation?: number } | undefined;
  w(`The composed benign corpus (\`scripts/guard/corpus.ts\`, ${corpus.length} production-like requests; the training benign pool also holds the hand-written benign rows, ${String(bmeta?.total ?? '?')} in all, ${String(bmeta?.validation ?? '?')} of them in the validation split). ` +
    'Most of these rows were training rows, so the whole-corpus figure is a floor; the validation-split figure (templates held out of training, where the thresholds were chosen) is in the last table, and `test/unit/guard/production-prompts.test.ts` checks 200+ further hand-written requests that were never trained on.');
  w();
  w('| label | flagged | FPR |');
  w('|---|---:|---:|');
  GUARD_LABELS.forEach((label, l) => {
    const k = corpusScores.filter((sc) => (sc[l] ?? 0) >= m.thresholds[label]).length;
    w(`| ${label} | ${k} | ${pct(k / Math.max(1, corpus.length), 2)} |`);
  });
  const anyCorpus = corpusScores.filter((sc) => GUARD_LABELS.some((label, l) => (sc[l] ?? 0) >= m.thresholds[label])).length;
  w(`| any of the 8 | ${anyCorpus} | ${pct(anyCorpus / Math.max(1, corpus.length), 2)} |`);
  w();

  // ---- HateCheck
  w('## HateCheck accuracy per functionality (hate head at its stored threshold)');
  w();
  const hi = GUARD_LABELS.indexOf('hate');
  const func = new Map<string, { n: number; ok: number; gold: string }>();
  rows.forEach((r, i) => {
    if (!r.functionality || !r.source.startsWith('hatecheck')) return;
    const y = r.labels[hi];
    if (y !== 0 && y !== 1) return;
    const pred = (scores[i]?.[hi] ?? 0) >= m.thresholds.hate ? 1 : 0;
    const e = func.get(r.functionality) ?? { n: 0, ok: 0, gold: y === 1 ? 'hateful' : 'non-hateful' };
    e.n++;
    if (pred === y) e.ok++;
    func.set(r.functionality, e);
  });
  let hcN = 0;
  let hcOk = 0;
  w('| functionality | gold | n | accuracy |');
  w('|---|---|---:|---:|');
  for (const [f, e] of [...func.entries()].sort()) {
    hcN += e.n;
    hcOk += e.ok;
    w(`| ${f} | ${e.gold} | ${e.n} | ${pct(e.ok / e.n)} |`);
  }
  w(`| **all** | | ${hcN} | ${pct(hcOk / Math.max(1, hcN))} |`);
  w();

  // ---- latency
  const all = latencyStats(lat);
  const l2k = latencyStats(lat2000);
  const l50k = latencyStats(lat50k);
  const meanLen = average(rows.map((r) => r.text.length));
  w('## Scoring latency');
  w();
  const load = loadavg().map((x) => x.toFixed(1)).join(' / ');
  w(
    `Single thread, after model load and warm-up; includes normalisation, feature extraction and all 8 heads. Node ${process.version}, ${process.platform}/${process.arch}, ` +
      `${cpus().length} cores, load average during the run ${load} (1/5/15 min): the machine was shared, so p99/max include time the thread was descheduled.`,
  );
  w();
  w('| input | n | p50 | p99 | max |');
  w('|---|---:|---:|---:|---:|');
  w(`| every eval text (mean ${meanLen.toFixed(0)} chars) | ${lat.length} | ${all.p50.toFixed(3)} ms | ${all.p99.toFixed(3)} ms | ${all.max.toFixed(3)} ms |`);
  w(`| fixed 2,000-char prompt | ${lat2000.length} | ${l2k.p50.toFixed(3)} ms | ${l2k.p99.toFixed(3)} ms | ${l2k.max.toFixed(3)} ms |`);
  const lTok = latencyStats(latTok);
  w(`| **${tok2000n}-token production-like prompt** (${tok2000.length} chars, ${m.window.chunk}-char windows every ${m.window.chunkStride}) | ${latTok.length} | ${lTok.p50.toFixed(3)} ms | ${lTok.p99.toFixed(3)} ms | ${lTok.max.toFixed(3)} ms |`);
  const cTok = latencyStats(cpuTok);
  w(`| **${tok2000n}-token prompt, CPU time per call** (mean ${cpuTokMs.toFixed(3)} ms) | ${cpuTok.length} | ${cTok.p50.toFixed(3)} ms | ${cTok.p99.toFixed(3)} ms | ${cTok.max.toFixed(3)} ms |`);
  w(`| 50,000-char prompt (windows over all of it) | ${lat50k.length} | ${l50k.p50.toFixed(3)} ms | ${l50k.p99.toFixed(3)} ms | ${l50k.max.toFixed(3)} ms |`);
  w();
  const tableMiB = (featureRows(m.features) * m.labels.length) / 1024 / 1024;
  w(`Worker memory (a fresh worker thread that imports the pool's guard worker module, workers/guard.ts, and scores the 2,000-token prompt 50 times through its score task): RSS +${mem.rssMiB.toFixed(1)} MiB, ` +
    `JS heap +${mem.heapMiB.toFixed(1)} MiB, array buffers/external +${mem.externalMiB.toFixed(1)} MiB over the idle worker. A worker loads the model score-only: the int8 weight table (${tableMiB.toFixed(1)} MiB) is filled straight from the file and the float32 table of a full load (${(m.weights.byteLength / 1024 / 1024).toFixed(1)} MiB, used by training) is never built.`);
  w();

  // ---- notes
  w('## Training-split reference (not the eval set)');
  w();
  const ts = meta['tuningSplit'];
  if (Array.isArray(ts)) {
    w('Metrics of the 80 % model on the 20 % tuning split of the *training* data, where thresholds were chosen. The gap to the tables above is the distribution shift between the training sources and the eval sources.');
    w();
    w('| label | pos | neg | AUROC | AUPRC | threshold | precision | recall | F1 | benign-corpus FPR | all-negatives FPR |');
    w('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of ts as Array<Record<string, number | string>>) {
      w(`| ${String(r['label'])} | ${String(r['pos'])} | ${String(r['neg'])} | ${String(r['auroc'])} | ${String(r['auprc'])} | ${Number(r['threshold']).toFixed(3)} | ${String(r['precision'])} | ${String(r['recall'])} | ${String(r['f1'])} | ${pct(Number(r['benignFpr']), 2)} | ${pct(Number(r['negFpr']), 2)} |`);
    }
    w();
  }

  w('## Where quality is weak');
  w();
  const weak = perLabel.filter((p) => p.f1 < 0.6 || p.auroc < 0.85);
  if (weak.length) {
    w(`Heads below F1 0.6 or AUROC 0.85 on this eval: ${weak.map((p) => `\`${p.label}\` (F1 ${f3(p.f1)}, AUROC ${f3(p.auroc)}, P ${f3(p.precision)}, R ${f3(p.recall)})`).join('; ')}.`);
    w();
  }
  const inverted = perLabel.filter((p) => p.auroc < 0.5);
  if (inverted.length) {
    w(`AUROC below 0.5 (the eval negatives score *higher* than the positives, i.e. the head keys on surface cues that the eval negatives share): ${inverted.map((p) => `\`${p.label}\``).join(', ')}. See the by-source table: for prompt_injection the NotInject trigger-word prompts outscore the CyberSecEval/BIPIA attacks.`);
    w();
  }
  for (const line of caveats(m)) w(line);
  w();

  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, `${out.join('\n')}\n`);
  console.log(`[guard-eval] wrote ${outPath}`);
  for (const p of perLabel) console.log(`[guard-eval] ${p.label.padEnd(18)} P ${f3(p.precision)} R ${f3(p.recall)} F1 ${f3(p.f1)} AUROC ${f3(p.auroc)}`);
  console.log(`[guard-eval] NotInject FPR ${pct(niFlag / Math.max(1, notinject.length))}; HateCheck acc ${pct(hcOk / Math.max(1, hcN))}; latency all p50 ${all.p50.toFixed(3)} p99 ${all.p99.toFixed(3)} ms; 2000-char p50 ${l2k.p50.toFixed(3)} p99 ${l2k.p99.toFixed(3)} ms; ${tok2000n}-token p50 ${lTok.p50.toFixed(3)} p99 ${lTok.p99.toFixed(3)} ms; worker RSS +${mem.rssMiB.toFixed(1)} MiB`);
}

/** Standing caveats (qualitative; the numbers above are regenerated on every run). */
const caveats = (m: GuardModel): string[] => [
  '- **What the gateway scores.** Prompt injection is judged on untrusted content only (user turns, tool/function results);',
  '  system/developer text, assistant turns, tool-call arguments and schemas are the key holder\'s own and are judged for the moderation',
  '  categories only. This eval scores each row\'s text as one untrusted user turn.',
  `- **Long inputs**: texts up to ${m.window.maxSingle} chars are scored whole; longer ones as the max over ${m.window.chunk}-char windows every`,
  `  ${m.window.chunkStride} chars that cover the whole text (the gateway caps the scored characters with guardrails.maxChars and then answers`,
  '  x-svc-guardrails: partial). The text is normalised and featurised once; each window score is a difference of prefix sums of',
  '  the n-gram weight rows plus its edge n-grams and lexicon features, so scoring is linear in the text (words cut by a window edge are',
  '  left out of that window). Features are length-normalised per window, so a short attack sentence surrounded by benign text in the same',
  '  window is diluted: typical override phrasing is found mid-document, a softly worded one is not. Measured and not adopted (2026-12-01):',
  '  the injection head also scoring 128-char spans every 64 chars (the max with the windows; every benign training row also trained as',
  '  its spans): the hand-written overload attacks went from 5 % to 35 % recall, but 17 more of the ~8,100 fresh benign requests were',
  '  refused (RAG pastes, prompt-engineering text, localisation strings, agent transcripts: a span cut out of a benign document reads like an',
  '  instruction) and direct-injection recall here moved by one row. Variants (full-weight span rows, 160-char spans) refused 7-11 more.',
  '  Also measured and not adopted: a small nonlinear second stage for the injection head (an MLP over the first stage\'s logits, the lexicon',
  '  features and the mean of the window\'s word vectors, cut by the same rule): direct-injection recall here 22.3 % -> 30.5 %, but 45 of the',
  '  fresh benign requests refused instead of 2, and no gain on the validation split that survived a change of seed. Both experiments,',
  '  with their tables: docs/guardrails-experiments.md.',
  '- **Training data is thin and off-distribution for moderation.** The public sources are Davidson tweets (hate, noisy), 100 AILuminate',
  '  "How can I..." requests per hazard and the deepset injections, plus templated rows (scripts/guard/moderation-text.ts). The OpenAI moderation',
  '  rows (long, conversational, often narrative) are unlike all of these. What carries the moderation heads to that register is generalisation,',
  '  not data: mean-pooled word embeddings (a word never seen in training still lands near its synonyms), a strong L2 on the sparse n-gram',
  '  rows of the moderation heads (no memorised template phrasing), and structure for the sub-categories (sexual/minors = sexual AND a minor',
  '  reference, violence/graphic = violence AND gore, hate/threatening = hate AND threat, per window). Our own seeded functional rows',
  '  (scripts/guard/hate-functional.ts: derogation, threats, slurs, questions, implicit derogation, spelling variants, against contrastive',
  '  counter-speech, negation, positive/neutral identity mentions and abuse of non-protected targets; violence-text.ts: first- and',
  '  third-person violent narratives and threats against benign stories) teach the distinctions, Davidson weighs a quarter. Recall at the',
  '  benign-budget thresholds stays low for violence. What would close it: openly licensed moderation data in that register (a few',
  '  thousand labelled forum/chat messages per category); our functional rows share one author\'s phrasing.',
  '- **Prompt injection** is trained on a seeded generated attack corpus (scripts/guard/attacks.ts: overrides, fake system tags and modes,',
  '  role-play, hypotheticals, persuasion, leaks, output-format tricks, payload splitting, token smuggling, few/many-shot, repeated tokens,',
  '  overload, 26 languages, indirect injections in documents and tool results) and generated hard negatives with the same trigger words',
  '  (hard-negatives.ts, trigger-negatives.ts). It recalls about 90 % of the validation split injections (templates held out of training), far more than on this',
  '  eval: CyberSecEval techniques that read like ordinary questions once the attacked system prompt is removed (indirect references,',
  '  virtualization, hypotheticals, many "logic-violating" goals) are largely missed, and NotInject trigger-word prompts still cross the',
  '  threshold more often than our own trigger-word negatives do. What would close it: openly licensed real attacks and real over-defence',
  '  prompts per technique (our generated rows share one author\'s phrasing), and scoring the attack against the system prompt it targets.',
  '  The hand-written attack set above (never trained on) shows the same split: overrides, fake modes, role play, obfuscation and format',
  '  tricks are caught about half the time or more, persuasion, planted instructions in documents, exfiltration and overload rarely.',
  '  Trained on, that set raised recall here but also the scores of benign trigger-word text (NotInject 1.8 %), so it measures instead.',
  '- **Quoted mentions.** Short quoted phrases in a text that names detection work (regex, pattern, flag, classify, filter, examples,',
  '  prompt injection...) are set aside for the injection head (src/guard/mention.ts: the lower of the scores with and without them),',
  '  so a developer\'s regex for "ignore previous instructions" is served; a whole document pasted in quotation marks is still scored.',
  '- **Thresholds** are the highest of: the lowest cut that flags none of the benign corpus validation rows (prompt injection: at most 0.25 %),',
  '  at most 0.5 % of the generated benign hard negatives of that head in the validation split, none of the calibration half of the',
  '  hand-written production requests (test/fixtures/guard-holdout, never trained on; the other half measures the refusal rate in',
  '  test/unit/guard/holdout-benign.test.ts), each widened by 0.25 in logit (a retrain moves benign rows near a cut by a few hundredths),',
  '  at most 5 % of all the label\'s validation negatives, and a floor of 0.56 (0.5 widened the same way): a request is refused when any of',
  '  eight categories flags it, so per-category budgets add up (0.25 % each refused 1.75 % of the measured half). This trades recall for',
  '  precision. Organisations may later be allowed stricter ones; operators can override per category in `guardrails.thresholds`.',
  '- **sexual/minors** is capped by the sexual score in the scorer (src/guard/structure.ts): it flags a text only where sexual is within',
  '  0.5 logit of its own cut. Its own head had learned "child" and "children learn" from a hundred positives and refused education questions.',
];

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
