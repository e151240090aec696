import { stat } from 'node:fs/promises';
import { ConfigError } from '../config/fields.js';
import { loadConfig } from '../config/load.js';
import type { AliasConfig, ModelConfig } from '../config/schema.js';
import type { Logger } from '../obs/logger.js';

export interface CatalogWatcher {
  /** Checks once now (tests; also what the timer calls). Resolves true when a new catalog was applied. */
  check(): Promise<boolean>;
  stop(): void;
}

/**
 * Catalog hot reload: every node polls the config file (SVC_CONFIG) and applies a changed, valid model list
 * without restart, well inside the contract's 60 s. An invalid file is logged and ignored: the running
 * catalog stays, and one line names every problem (unknown fields and providers included). `transform`
 * re-applies start-up rewrites (e.g. dev simulator endpoints).
 */
export async function watchCatalog(opts: {
  path: string;
  env: NodeJS.ProcessEnv;
  intervalMs: number;
  log: Logger;
  transform: (models: ModelConfig[]) => ModelConfig[];
  apply: (models: ModelConfig[], aliases: AliasConfig[]) => void;
}): Promise<CatalogWatcher> {
  let lastMtime = 0;
  let lastJson = '';
  let busy = false;
  const check = async (): Promise<boolean> => {
    if (busy) return false;
    busy = true;
    try {
      const mtime = (await stat(opts.path)).mtimeMs;
      if (mtime === lastMtime) return false;
      lastMtime = mtime;
      const next = loadConfig(opts.env);
      const models = opts.transform(next.models);
      const json = JSON.stringify([models, next.aliases]);
      if (json === lastJson) return false;
      const first = lastJson === '';
      lastJson = json;
      if (first) return false;
      opts.apply(models, next.aliases);
      opts.log.info('catalog reloaded', { models: models.length });
      return true;
    } catch (e) {
      const problems = e instanceof ConfigError ? e.problems.join('; ') : (e as Error).message;
      opts.log.warn(`catalog reload refused, the running catalog stays: ${problems}`, { path: opts.path });
      return false;
    } finally {
      busy = false;
    }
  };
  await check(); // the baseline: the catalog the gateway started with
  const timer = setInterval(() => void check(), opts.intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
