import { framingTokens, typicalTokens, upperBoundTokens } from '../billing/estimate.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { WorkerPool } from '../pool/pool.js';
import type { Catalog } from '../routing/catalog.js';
import type { EndpointHealth } from '../routing/health.js';
import { resolveRoute } from '../routing/resolve.js';
import { buildChain } from './chain.js';
import { classifyPrompt } from './classify.js';
import type { TextFlow } from './flow.js';
import type { Stage } from './stage.js';

export interface RouteDeps {
  catalog: () => Catalog;
  health: EndpointHealth;
  pool: Pick<WorkerPool, 'run'>;
}

/** The exact prompt count (worker pool, the organization's fair share), started once per request. */
export function exactInputTokens(pool: Pick<WorkerPool, 'run'>, f: TextFlow): Promise<number> {
  return (f.exact ??= pool.run('countTokens', { texts: f.p.texts }, { tenant: f.orgId }).then((n) => n + framingTokens(f.p.messageCount)));
}

/**
 * Resolves the model into the routing chain (svc/auto classifies in the pool), checks the output cap and
 * the context (exact count only when the byte bound does not fit), ranks endpoints by health. After
 * admission: a refused key never reaches the pool. No undo.
 */
export function routeStage(d: RouteDeps): Stage<TextFlow> {
  return {
    name: 'route',
    async run(f) {
      const { key, org } = f.st.principal!;
      const { p, size } = f;
      const typical = typicalTokens(size);
      const route = await resolveRoute(d.catalog(), key, org, p.model, f.fields.fallbacks, typical, () =>
        classifyPrompt(d.pool, f.orgId, p.canonical(), typical),
      );
      const model = route.primary;
      if (p.maxTokens !== null && p.maxTokens > model.maxOutput) {
        throw new GatewayError('max_output_tokens_too_large', {
          message: `Requested output ${p.maxTokens} exceeds ${model.id}'s maximum output of ${model.maxOutput}.`,
        });
      }
      if (upperBoundTokens(size) > model.contextLength && (await exactInputTokens(d.pool, f)) > model.contextLength) {
        throw new GatewayError('input_too_large', { message: `The prompt exceeds ${model.id}'s context of ${model.contextLength} tokens.` });
      }
      f.resolved = route;
      f.maxOut = p.maxTokens ?? model.maxOutput;
      f.chain = buildChain(route.entries, d.health);
    },
  };
}
