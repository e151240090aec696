import { framingTokens, typicalTokens, upperBoundTokens } from '../billing/estimate.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { WorkerPool } from '../pool/pool.js';
import type { Catalog } from '../routing/catalog.js';
import type { EndpointHealth } from '../routing/health.js';
import { resolveRoute } from '../routing/resolve.js';
import { buildChain } from './chain.js';
import { classifyPrompt } from './classify.js';
import { checkOutputCapabilities } from './output-capabilities.js';
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

async function resolve(d: RouteDeps, f: TextFlow): Promise<void> {
  const { key, org } = f.st.principal!;
  const { p } = f;
  const typical = typicalTokens(f.size);
  const route = await resolveRoute(d.catalog(), key, org, p.model, f.fields.fallbacks, typical, () => classifyPrompt(d.pool, f.orgId, p.canonical(), typical));
  const model = route.primary;
  if (p.maxTokens !== null && p.maxTokens > model.maxOutput) {
    throw new GatewayError('max_output_tokens_too_large', {
      message: `Requested output ${p.maxTokens} exceeds ${model.id}'s maximum output of ${model.maxOutput}.`,
    });
  }
  f.resolved = route;
  f.maxOut = p.maxTokens ?? model.maxOutput;
  f.chain = buildChain(route.entries, d.health);
  checkOutputCapabilities(f.chain, p);
}

/**
 * Resolves a model that needs no worker-pool work (a concrete id, a `fastest-*` family) before admission,
 * so admission and the hold can share one Store round trip. svc/auto is left to the route stage: its
 * classification runs in the pool, after admission. No undo.
 */
export function resolveStage(d: RouteDeps): Stage<TextFlow> {
  return {
    name: 'resolve',
    async run(f) {
      if (d.catalog().alias(f.p.model, f.st.principal!.key)?.kind === 'auto') return;
      await resolve(d, f);
    },
  };
}

/**
 * After admission: resolves what is left (svc/auto classifies in the pool), checks the context (an exact
 * count only when the byte bound does not fit) and ranks endpoints by health. No undo.
 */
export function routeStage(d: RouteDeps): Stage<TextFlow> {
  return {
    name: 'route',
    async run(f) {
      if (f.chain === undefined) await resolve(d, f);
      const model = f.resolved.primary;
      if (upperBoundTokens(f.size) > model.contextLength && (await exactInputTokens(d.pool, f)) > model.contextLength) {
        throw new GatewayError('input_too_large', { message: `The prompt exceeds ${model.id}'s context of ${model.contextLength} tokens.` });
      }
    },
  };
}
