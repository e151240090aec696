import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walk up from a module URL (or path) to the nearest directory holding package.json. */
export function findProjectRoot(from: string | URL): string {
  let dir = dirname(typeof from === 'string' && !from.startsWith('file:') ? from : fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`guard: no package.json above ${String(from)}`);
    dir = up;
  }
}

/** Default model location: <project root>/models/guard-model.json. */
export function defaultModelPath(root: string): string {
  return join(root, 'models', 'guard-model.json');
}
