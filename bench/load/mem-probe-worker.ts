/** Worker-thread shim of mem-probe.ts: starts the probe, then the worker's own entry (the last argv). */
import { pathToFileURL } from 'node:url';

const entry = process.argv.pop() ?? '';
await import('./mem-probe.js');
await import(pathToFileURL(entry).href);
