/**
 * Lua script loader. Scripts live in src/store/redis/lua and are read from the project root (the nearest
 * directory above this module holding package.json), so the same path works from TS sources under vitest and
 * from compiled dist/ without a copy step. A `--#include name` line inlines lua/lib/name.lua.
 *
 * Each script is sent once: EVALSHA by its sha1, falling back to EVAL (which also caches it server-side) when
 * Redis answers NOSCRIPT, e.g. after a restart or a SCRIPT FLUSH.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from './client.js';

export const SCRIPT_NAMES = [
  'admit',
  'admit-hold',
  'release-leases',
  'hold',
  'release-hold',
  'balance',
  'settle',
  'top-up',
  'hit',
  'create-record',
  'patch-record',
  'set-remove-keeping',
  'kv-set-capped',
] as const;
export type ScriptName = (typeof SCRIPT_NAMES)[number];

export function projectRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

export function luaDir(): string {
  return join(projectRoot(), 'src', 'store', 'redis', 'lua');
}

export function readScript(dir: string, name: string): string {
  const source = readFileSync(join(dir, `${name}.lua`), 'utf8');
  return source.replace(/^--#include ([\w-]+)[ \t]*$/gm, (_line, lib: string) =>
    readFileSync(join(dir, 'lib', `${lib}.lua`), 'utf8'),
  );
}

export type ScriptArg = string | number;

export class LuaScript {
  readonly name: string;
  readonly source: string;
  readonly sha: string;

  constructor(name: string, source: string) {
    this.name = name;
    this.source = source;
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: RedisClient, keys: string[], args: ScriptArg[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

export type Scripts = Record<ScriptName, LuaScript>;

export function loadScripts(dir: string = luaDir()): Scripts {
  const out: Partial<Scripts> = {};
  for (const name of SCRIPT_NAMES) out[name] = new LuaScript(name, readScript(dir, name));
  return out as Scripts;
}
