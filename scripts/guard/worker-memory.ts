/**
 * Memory a guard worker thread adds by loading the model and scoring: a fresh worker_threads Worker imports the
 * pool's guard worker module (workers/guard.ts, so the model is loaded exactly as the gateway's workers load it) and
 * reports process.memoryUsage() (after a forced GC when node runs with --expose-gc, else as is) before the first
 * task and after scoring a prompt 50 times through the module's score task. RSS is process-wide, but the main thread is idle while the worker
 * measures, so the delta is the worker's. Run eval with node --expose-gc for a GC before each reading.
 */
import { Worker } from 'node:worker_threads';

export interface WorkerMemory {
  rssMiB: number;
  heapMiB: number;
  externalMiB: number;
}

const WORKER_URL = new URL('../../workers/guard.js', import.meta.url).href;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const runGc = globalThis.gc ?? (() => {});
const snap = () => { runGc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed, ext: m.external + m.arrayBuffers }; };
(async () => {
  const mod = await import(workerData.workerUrl);
  const before = snap();
  for (let i = 0; i < 50; i++) mod.score({ texts: [workerData.prompt] });
  const after = snap();
  parentPort.postMessage({ before, after });
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

interface Snap {
  rss: number;
  heap: number;
  ext: number;
}

export function measureWorkerMemory(modelPath: string, prompt: string, workerUrl: string = WORKER_URL): Promise<WorkerMemory> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, SVC_GUARD_MODEL: modelPath };
    const w = new Worker(SOURCE, { eval: true, env, workerData: { workerUrl, prompt } });
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
