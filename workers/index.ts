/** The piscina entry: named pure tasks (src/pool/pool.ts WorkerTasks lists their types). */
export { countTokens } from './tokenize.js';
export { classify } from './classify.js';
export { score, thresholds } from './guard.js';
