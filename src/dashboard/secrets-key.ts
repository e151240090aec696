import { dirname, join } from 'node:path';
import type { GatewayConfig } from '../config/schema.js';
import { fileSecretsKey, parseSecretsKey, SecretBox } from '../events/secret-box.js';

/**
 * The key that seals webhook and channel secrets at rest: `SVC_SECRETS_KEY` (every node of a Redis
 * deployment must share it), else, on the embedded store, a key file created beside (never inside) its
 * snapshot. Redis without SVC_SECRETS_KEY stores them unsealed, and says so at start.
 */
export function secretBoxFor(config: Pick<GatewayConfig, 'store'>, env: NodeJS.ProcessEnv): { box: SecretBox | null; source: string } {
  if (env.SVC_SECRETS_KEY) return { box: new SecretBox(parseSecretsKey(env.SVC_SECRETS_KEY)), source: 'SVC_SECRETS_KEY' };
  if (config.store.kind === 'memory' && config.store.snapshotPath) {
    const path = join(dirname(config.store.snapshotPath), 'secrets.key');
    return { box: new SecretBox(fileSecretsKey(path)), source: path };
  }
  return { box: null, source: 'none (set SVC_SECRETS_KEY to seal webhook and channel secrets at rest)' };
}
