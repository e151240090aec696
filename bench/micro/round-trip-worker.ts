/**
 * The worker of bench/micro/round-trip.ts: as a piscina task module (the default export) and, started as a plain
 * worker_threads Worker with workerData.raw, answering each message on its parent port. Both return eight scores
 * per text, the shape the guard worker returns, without scoring.
 */
import { parentPort, workerData } from 'node:worker_threads';

interface Task {
  id?: number;
  texts: string[];
}

function scores(texts: string[]): Record<string, number>[] {
  return texts.map(() => ({ a: 0.1, b: 0.2, c: 0.3, d: 0.4, e: 0.5, f: 0.6, g: 0.7, h: 0.8 }));
}

export default function score(task: Task): Record<string, number>[] {
  return scores(task.texts);
}

const port = parentPort;
if (port !== null && (workerData as { raw?: boolean } | null)?.raw === true) {
  port.on('message', (m: Task) => port.postMessage({ id: m.id, scores: scores(m.texts) }));
}
