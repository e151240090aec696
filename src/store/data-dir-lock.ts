/**
 * One gateway per data directory: the embedded store's database and the settlement journal assume a single
 * writer of hot state (holds, leases) and of the journal. `gateway.pid` is created exclusively (O_EXCL) and
 * holds the owner's pid; a file left by a process that no longer runs is taken over. The operator CLI does
 * not take this lock: it writes through the database's own multi-process transactions.
 */
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`data directory ${dir} is in use by another gateway (pid ${pid}); stop that process or set SVC_DATA_DIR to another directory`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the directory's lock or throws DataDirLockedError naming the directory and the holder's pid. */
export function lockDataDir(dir: string): DataDirLock {
  const abs = resolve(dir);
  // Created private: it holds the store, the settlement journal and the dev key.
  mkdirSync(abs, { recursive: true, mode: 0o700 });
  const path = join(abs, 'gateway.pid');
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = ownerOf(path);
      if (pid !== null && pid !== process.pid && alive(pid)) throw new DataDirLockedError(abs, pid);
      // Stale (its process is gone) or half-written: take it over.
      rmSync(path, { force: true });
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    const release = (): void => {
      if (ownerOf(path) === process.pid) rmSync(path, { force: true });
      process.off('exit', release);
    };
    process.on('exit', release);
    return { path, release };
  }
  throw new Error(`could not take the lock ${path}`);
}
