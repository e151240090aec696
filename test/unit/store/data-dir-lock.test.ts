import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../../src/store/data-dir-lock.js';

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the lock, refuses while a live process holds it, and frees it on release', () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(lock.path, 'utf8').trim()).toBe(String(process.pid));
    // Held by another live process (our parent stands in for a second gateway).
    writeFileSync(lock.path, `${process.ppid}\n`);
    let err: unknown;
    try {
      lockDataDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toBe(
      `data directory ${dir} is in use by another gateway (pid ${process.ppid}); stop that process or set SVC_DATA_DIR to another directory`,
    );
    writeFileSync(lock.path, `${process.pid}\n`);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, 'gateway.pid'), `${dead}\n`);
    const lock = lockDataDir(dir);
    expect(readFileSync(lock.path, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });
});
