/**
 * Scores the fresh benign set (test/fixtures/guard-fresh) exactly as the gateway does (scripts/guard/gateway-judge.ts)
 * and prints every refusal with the label, score and threshold, per half (discovery = even positions, measure =
 * odd positions).
 *
 *   node dist/scripts/guard/fresh-check.js [--model PATH] [--half discovery|measure|both] [--near 0.8]
 *
 * --near also lists requests served with a category at or over that fraction of its threshold.
 */
import { GUARD_LABELS } from '../../src/guard/labels.js';
import { loadModel } from '../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { DISCOVERY_REQUESTS, MEASURE_REQUESTS, type IdentifiedRequest } from '../../test/fixtures/guard-fresh/index.js';
import { judgeRequest } from './gateway-judge.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const modelPath = arg('--model') ?? process.env['SVC_GUARD_MODEL'] ?? defaultModelPath(findProjectRoot(import.meta.url));
  const which = arg('--half') ?? 'both';
  const near = Number(arg('--near') ?? '0');
  const model = loadModel(modelPath);
  console.log(`model ${modelPath}`);
  console.log(`thresholds ${GUARD_LABELS.map((l) => `${l}=${model.thresholds[l]}`).join(' ')}`);
  const halves: Array<[string, readonly IdentifiedRequest[]]> = [];
  if (which !== 'measure') halves.push(['discovery', DISCOVERY_REQUESTS]);
  if (which !== 'discovery') halves.push(['measure', MEASURE_REQUESTS]);
  for (const [name, reqs] of halves) {
    let refused = 0;
    const perLabel: Record<string, number> = {};
    const lines: string[] = [];
    const nearLines: string[] = [];
    for (const r of reqs) {
      const j = await judgeRequest(model, r.messages);
      if (j.refusals.length > 0) {
        refused++;
        for (const f of j.refusals) {
          perLabel[f.label] = (perLabel[f.label] ?? 0) + 1;
          const m = r.messages[f.message];
          lines.push(`  REFUSED ${r.id} ${f.label} ${f.score.toFixed(3)} >= ${f.threshold.toFixed(4)} in ${m ? `${m.role}#${f.message} ${JSON.stringify(m.content.slice(0, 90))}` : '?'}`);
        }
      } else if (near > 0) {
        for (const l of GUARD_LABELS) {
          if (j.scores[l] >= near * model.thresholds[l]) nearLines.push(`  near ${r.id} ${l} ${j.scores[l].toFixed(3)} / ${model.thresholds[l].toFixed(4)}`);
        }
      }
    }
    console.log(`\n${name}: ${refused} of ${reqs.length} requests refused; per label ${JSON.stringify(perLabel)}`);
    for (const l of lines) console.log(l);
    for (const l of nearLines) console.log(l);
  }
}

await main();
