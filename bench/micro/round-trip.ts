/**
 * Micro-benchmark: main-thread CPU of one task's round trip to a worker thread, one task in flight (the enforce mode's
 * hand-off at a fixed rate, where every request is its own task): through piscina's `run`, as src/pool/pool.ts hands
 * work to the guard worker, and as a bare worker_threads postMessage and reply. Main-thread CPU is read from
 * /proc/self/task/<pid>/stat (Linux), so the worker's own time is not counted; interleaved rounds.
 *
 *   node dist/bench/micro/round-trip.js        (N=20,000 tasks per round after 2,000 of warm-up, ROUNDS=2)
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';

const WORKER = new URL('./round-trip-worker.js', import.meta.url);
const n = Number(process.env['N'] ?? 20_000);
const rounds = Number(process.env['ROUNDS'] ?? 2);
const TEXT = 'Say hello number 12345 to the team please.';

/** CPU ms of the main thread so far (utime + stime, in clock ticks of 10 ms). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function measure(name: string, round: number, task: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 2_000; i++) await task(i);
  const cpu0 = mainThreadCpuMs();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await task(i);
  const cpuUs = ((mainThreadCpuMs() - cpu0) * 1000) / n;
  const wallUs = ((performance.now() - t0) * 1000) / n;
  console.log(`| ${name} | ${round} | ${cpuUs.toFixed(1)} | ${wallUs.toFixed(1)} |`);
}

const pool = new Piscina({ filename: WORKER.href, minThreads: 1, maxThreads: 1 });
const raw = new Worker(WORKER, { workerData: { raw: true } });
const waiting = new Map<number, () => void>();
raw.on('message', (m: { id: number }) => {
  waiting.get(m.id)?.();
  waiting.delete(m.id);
});
const viaRaw = (i: number): Promise<void> =>
  new Promise((resolve) => {
    waiting.set(i, resolve);
    raw.postMessage({ id: i, texts: [TEXT] });
  });

console.log('\nWorker round trip, one task in flight (bench/micro/round-trip.ts), %d tasks per round:\n', n);
console.log('| variant | round | main-thread CPU us per task | wall us per task |');
console.log('|---|---:|---:|---:|');
for (let round = 1; round <= rounds; round++) {
  await measure('piscina run', round, () => pool.run({ texts: [TEXT] }));
  await measure('worker_threads postMessage', round, viaRaw);
}
await pool.destroy();
await raw.terminate();
