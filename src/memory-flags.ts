import { setFlagsFromString } from 'node:v8';

/**
 * The Node options the gateway runs with (docs/memory.md): `make run`, `npm start` and the benches start
 * `node <GATEWAY_NODE_FLAGS> dist/src/main.js`; an operator's own launcher (systemd, a container) should pass
 * them too, for instance as NODE_OPTIONS. They can only be given at start: V8 sizes the main thread's heap
 * when the process starts (v8.setFlagsFromString later has no effect on it). The SVC_PROCESSES children
 * inherit them (fork passes the parent's execArgv).
 *
 * --max-semi-space-size=4: the main thread's young generation is two semi-spaces, which V8 grows up to 16 MiB
 * each under load: 32 MiB resident, mostly garbage between scavenges. A request's objects die young and
 * small, so 4 MiB semi-spaces (8 MiB of new space) scavenge more often at no measured CPU cost per request
 * and keep ~24 MiB less resident (measured in docs/memory.md).
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * V8 flags the gateway sets on itself at start (applyRuntimeHeapFlags), so they hold however it is launched:
 * V8 reads them at every major GC, unlike the heap sizes above, and Node refuses them in NODE_OPTIONS.
 *
 * --heap-growing-percent=50: after a major GC V8 lets the old space grow to a multiple of what survived before the
 * next one, up to 4x for a small heap. Under load the main thread's old space then held 150-200 MiB of garbage for
 * 20-25 MiB of live objects (a request's objects are promoted by the small young generation above). Growing by
 * 1.5x instead collects sooner: peak RSS at 64 connections 224-226 -> 156-164 MiB, CPU per request within the
 * run-to-run noise (0.50-0.54 -> 0.53-0.55 ms); docs/memory.md.
 */
export const RUNTIME_V8_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/** Sets RUNTIME_V8_FLAGS on this process (every thread: V8 flags are process-wide). */
export function applyRuntimeHeapFlags(): void {
  for (const f of RUNTIME_V8_FLAGS) setFlagsFromString(f);
}

/** The flags of GATEWAY_NODE_FLAGS that this process was started without (execArgv or NODE_OPTIONS). */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map((f) => f.replace(/_/g, '-')));
  return GATEWAY_NODE_FLAGS.filter((f) => !given.has(f));
}
