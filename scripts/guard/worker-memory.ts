/**
 * Memory a guard worker thread adds by loading the model and scoring: a fresh worker_threads Worker reports
 * process.memoryUsage() (after a forced GC when node runs with --expose-gc, else as is) before loading the model
 * and after loading it and scoring a prompt. RSS is process-wide, but the main thread is idle while the worker
 * measures, so the delta is the worker's. Run eval with node --expose-gc for a GC before each reading.
 */
import { Worker } from 'node:worker_threads';

export interface WorkerMemory {
  rssMiB: number;
  heapMiB: number;
  externalMiB: number;
}

const MODEL_URL = new URL('../../src/guard/model.js', import.meta.url).href;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const runGc = globalThis.gc ?? (() => {});
const snap = () => { runGc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed, ext: m.external + m.arrayBuffers }; };
(async () => {
  const mod = await import(workerData.modelUrl);
  const before = snap();
  const model = mod.loadModel(workerData.modelPath);
  for (let i = 0; i < 50; i++) mod.scoreTextArray(model, workerData.prompt);
  const after = snap();
  parentPort.postMessage({ before, after, keep: model.weights.length });
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

interface Snap {
  rss: number;
  heap: number;
  ext: number;
}

export function measureWorkerMemory(modelPath: string, prompt: string): Promise<WorkerMemory> {
  return new Promise((resolve, reject) => {
    const w = new Worker(SOURCE, { eval: true, workerData: { modelUrl: MODEL_URL, modelPath, prompt } });
    w.once('message', (msg: { before?: Snap; after?: Snap; error?: string }) => {
      void w.terminate();
      if (msg.error || !msg.before || !msg.after) return reject(new Error(`worker memory: ${msg.error ?? 'no result'}`));
      const mib = (x: number): number => x / 1024 / 1024;
      resolve({
        rssMiB: mib(msg.after.rss - msg.before.rss),
        heapMiB: mib(msg.after.heap - msg.before.heap),
        externalMiB: mib(msg.after.ext - msg.before.ext),
      });
    });
    w.once('error', reject);
  });
}
