// Resident memory of one pool worker, step by step: process RSS after starting a bare worker thread, importing
// the worker tasks (dist/workers/index.js, which the piscina entry dist/workers/entry.cjs imports), and running each named task once. Needs `make build`.
// usage: node bench/memory-worker.mjs [steps]   (steps: comma-separated of import,model,score,tok; default import,model,score,tok)
import { Worker } from 'node:worker_threads';
import { fileURLToPath, URL } from 'node:url';
import console from 'node:console';
import process from 'node:process';
import { setTimeout } from 'node:timers';

const entry = fileURLToPath(new URL('../dist/workers/index.js', import.meta.url));
const rss = () => Math.round(process.memoryUsage().rss / 1048576);
const steps = (process.argv[2] ?? 'import,model,score,tok').split(',');
const code = `
const { parentPort } = require('node:worker_threads');
let w = null;
parentPort.on('message', async (m) => {
  if (m === 'import') w = await import(${JSON.stringify(entry)});
  if (m === 'model') w.thresholds({});
  if (m === 'score') w.score({ texts: ['hello world'] });
  if (m === 'tok') await w.countTokens({ texts: ['hello world'] });
  const u = process.memoryUsage();
  parentPort.postMessage({ heapMiB: Math.round(u.heapUsed / 1048576), arrayBuffersMiB: Math.round(u.arrayBuffers / 1048576), externalMiB: Math.round(u.external / 1048576) });
});`;
console.log(`main thread only: ${rss()} MiB`);
const worker = new Worker(code, { eval: true });
const ask = (m) => new Promise((resolve) => { worker.once('message', resolve); worker.postMessage(m); });
await ask('start');
console.log(`bare worker: ${rss()} MiB`);
for (const s of steps) {
  const inWorker = await ask(s);
  await new Promise((r) => setTimeout(r, 300));
  console.log(`after ${s}: ${rss()} MiB`, inWorker);
}
await worker.terminate();
