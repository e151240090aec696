import { setFlagsFromString } from 'node:v8';

/**
 * The Node options the gateway runs with (docs/memory.md): `make run`, `npm start` and the benches start
 * `node <GATEWAY_NODE_FLAGS> dist/src/main.js`; an operator's own launcher (systemd, a container) should pass
 * them too, for instance as NODE_OPTIONS. They can only be given at start: V8 sizes the main thread's heap
 * when the process starts (v8.setFlagsFromString later has no effect on it). The SVC_PROCESSES children
 * inherit them (fork passes the parent's execArgv).
 *
 * --max-semi-space-size=8: the main thread's young generation is two semi-spaces, which V8 grows up to 16 MiB
 * each under load: 32 MiB resident, mostly garbage between scavenges. A request's objects die young and small, so
 * 8 MiB semi-spaces (16 MiB of new space) keep ~16 MiB less resident than V8's default. Smaller ones cost CPU and
 * tail latency: every scavenge pauses the loop, and a 4 MiB semi-space filled every ~80 requests (~52 KB each). Measured against 4
 * (docs/memory.md, "Semi-space size"): ~10% less CPU per request and a lower fixed-rate p99, for 8-10 MiB more at
 * the peak (64 connections: 129/133 -> 138/140 MiB). `--max-semi-space-size=4` is the memory-first choice.
 *
 * --v8-pool-size=1: V8's platform threads (parallel scavenge helpers, concurrent marking, background compiles)
 * default to 4. On the 2-core machine the gateway shares with its upstream and its clients, a scavenge that
 * handed work to four helpers waited for the ones the kernel had not scheduled yet: at a fixed 500 req/s the
 * added p99 was ~10 ms with 4 and ~6.5 ms with 1, for the same CPU per request, and the three idle threads'
 * stacks and arenas cost ~7 MiB of RSS (docs/memory.md, "V8's platform threads").
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--v8-pool-size=1'];

/**
 * The V8 heap-growing percent the gateway sets on itself at start (applyRuntimeHeapFlags), so it holds however
 * the gateway is launched: V8 reads it at every major GC, unlike the heap sizes above, and Node refuses it in
 * NODE_OPTIONS. SVC_HEAP_GROWING_PERCENT overrides it (0: V8's own dynamic factor).
 *
 * 50: after a major GC V8 lets the old space grow to a multiple of what survived before the next one, up to 4x
 * for a small heap. Under load the main thread's old space then held 150-200 MiB of garbage for 20-25 MiB of
 * live objects (a request's objects are promoted by the small young generation above). Growing by 1.5x instead
 * collects sooner. Measured (docs/memory.md): peak RSS at 64 connections 224-226 -> 156-164 MiB, for about 5%
 * more CPU per request (the concurrent marking threads) and ~1-2 ms more p99 at a fixed 500 req/s.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** SVC_HEAP_GROWING_PERCENT: an integer 0..1000 (default DEFAULT_HEAP_GROWING_PERCENT); throws on anything else. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_HEAP_GROWING_PERCENT;
  if (raw === undefined || raw.trim() === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 1000) {
    throw new Error(`SVC_HEAP_GROWING_PERCENT must be an integer from 0 (V8's own heap growing) to 1000, got "${raw}"`);
  }
  return n;
}

/** Sets the heap-growing percent on this process (every thread: V8 flags are process-wide); returns it. */
export function applyRuntimeHeapFlags(env: NodeJS.ProcessEnv = process.env): number {
  const pct = heapGrowingPercent(env);
  setFlagsFromString(`--heap-growing-percent=${pct}`);
  setFlagsFromString(WASM_BASELINE_ONLY);
  return pct;
}

/**
 * WebAssembly compiled by V8's baseline compiler (Liftoff) only, set at start like the heap-growing percent (read at
 * each compile, so it holds however the gateway is launched; set before the first upstream connection). The HTTP
 * client's parser (undici's llhttp) is WebAssembly: on the first upstream response V8 tiered its main function up
 * with TurboFan on a background thread, whose compile zones held ~35 MiB for ~250 ms. That was the process's peak
 * resident memory (VmHWM), whatever the load after: 107 MiB before the first request, 143-145 after it, back to ~110
 * a moment later; with Liftoff only, 107 -> 109. The parser's share of a request's instructions is about 0.6%
 * (callgrind); the cost of running it as baseline code is measured in bench/results/cpu.md (2026-12-02, session 15).
 */
export const WASM_BASELINE_ONLY = '--liftoff-only';

/**
 * The flags of GATEWAY_NODE_FLAGS that this process was started without (execArgv or NODE_OPTIONS). A flag given
 * with another value counts as given: the operator chose it (for example the memory-first semi-space size).
 */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): string[] {
  const name = (f: string): string => f.replace(/_/g, '-').split('=')[0]!;
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(name));
  return GATEWAY_NODE_FLAGS.filter((f) => !given.has(name(f)));
}
