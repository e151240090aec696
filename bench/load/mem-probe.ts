/**
 * Memory probe for the gateway under test (docs/memory.md): preload it into the gateway with
 *
 *   MEM_PROBE_DIR=/tmp/probe NODE_OPTIONS="--import ./dist/bench/load/mem-probe.js" node dist/src/main.js
 *
 * (or BENCH_GATEWAY_NODE_OPTIONS for bench/load/sustained.ts). Every MEM_PROBE_MS (default 2 s) each thread writes
 * `<dir>/<pid>-<threadId>.json`: its V8 heap (used/total/physical, per space), external and array-buffer bytes, and
 * the peak of each seen so far; the main thread adds /proc/self/smaps summed by mapping kind (V8/malloc anonymous
 * memory, the brk heap, code of node and its libraries, the LMDB file, stacks). Worker threads are covered by
 * wrapping worker_threads.Worker (piscina creates its workers through it): each starts this probe before its own
 * entry. Measurement only; nothing here is loaded by a gateway that is not started with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const wt = require('node:worker_threads') as typeof import('node:worker_threads');
const DIR = process.env.MEM_PROBE_DIR ?? '/tmp/mem-probe';
const EVERY = Number(process.env.MEM_PROBE_MS ?? 2_000);
const SELF = fileURLToPath(import.meta.url);

type Kinds = Record<string, { rss: number; anon: number }>;

/** Resident KiB of /proc/self/smaps by kind of mapping. */
function smapsKinds(): Kinds {
  const out: Kinds = {};
  let kind = 'anon';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind =
        name === '' ? 'anon (V8 heaps, thread arenas, wasm)'
        : name === '[heap]' ? 'brk heap (main malloc arena)'
        : name.endsWith('store.lmdb') ? 'LMDB map (file)'
        : name.startsWith('[stack') ? 'stack'
        : name.endsWith('.so') || /\.so[.\d]*$/.test(name) || /\.node$/.test(name) ? 'shared libs / addons (code)'
        : /\/node$/.test(name) ? 'node binary (code)'
        : name.startsWith('[') ? name
        : 'other files';
      continue;
    }
    const m = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (!m) continue;
    const slot = (out[kind] ??= { rss: 0, anon: 0 });
    if (m[1] === 'Rss') slot.rss += Number(m[2]);
    else slot.anon += Number(m[2]);
  }
  return out;
}

const peak: Record<string, number> = {};
function sample(): Record<string, unknown> {
  const h = v8.getHeapStatistics();
  const mu = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size, physical: s.physical_space_size }]),
  );
  const now = { heapUsed: h.used_heap_size, heapTotal: h.total_heap_size, heapPhysical: h.total_physical_size, external: mu.external, arrayBuffers: mu.arrayBuffers, mallocedMemory: h.malloced_memory, rss: mu.rss };
  for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
  return { at: Date.now(), threadId: wt.threadId, main: wt.isMainThread, now, peak, spaces, ...(wt.isMainThread ? { smapsKiB: smapsKinds() } : {}) };
}

function write(): void {
  try {
    writeFileSync(join(DIR, `${process.pid}-${wt.threadId}.json`), JSON.stringify(sample(), null, 1));
  } catch {
    // the directory may be gone at the end of a run
  }
}
setInterval(write, EVERY).unref();
write();

if (wt.isMainThread) {
  const Original = wt.Worker;
  /** Starts this probe in every worker thread, then the worker's own entry (passed as the last argv). */
  class ProbedWorker extends Original {
    constructor(filename: string | URL, options: WorkerOptions = {}) {
      if (options.eval === true) {
        super(filename, options);
        return;
      }
      const entry = filename instanceof URL ? fileURLToPath(filename) : filename;
      super(join(SELF, '..', 'mem-probe-worker.js'), { ...options, argv: [...(options.argv ?? []), entry] });
    }
  }
  wt.Worker = ProbedWorker;
}
