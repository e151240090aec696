/**
 * Worker memory of the guard worker module (see worker-memory.ts), for before/after comparisons of builds:
 *
 *   node --expose-gc dist/scripts/guard/worker-memory-cli.js [WORKER_MODULE_PATH] [ROUNDS]
 *
 * Prints RSS / JS heap / array-buffer deltas of a fresh worker per round, with the eval's 2,000-token prompt.
 */
import { pathToFileURL } from 'node:url';
import { defaultModelPath, findProjectRoot } from '../../src/guard/paths.js';
import { countTokens } from '../../workers/tokenize.js';
import { benignCorpus } from './corpus.js';
import { measureWorkerMemory } from './worker-memory.js';

const root = findProjectRoot(import.meta.url);
const workerPath = process.argv[2];
const rounds = Number(process.argv[3] ?? 3);
const corpus = benignCorpus();
let prompt = '';
for (let i = 0; (await countTokens({ texts: [prompt] })) < 2000; i += 7) prompt += `${corpus[i % corpus.length]?.text ?? ''}\n\n`;
for (let r = 0; r < rounds; r++) {
  const m = await measureWorkerMemory(defaultModelPath(root), prompt, workerPath !== undefined ? pathToFileURL(workerPath).href : undefined);
  process.stdout.write(`worker memory: RSS +${m.rssMiB.toFixed(1)} MiB, heap +${m.heapMiB.toFixed(1)} MiB, array buffers/external +${m.externalMiB.toFixed(1)} MiB\n`);
}
process.exit(0);
