import { framingTokens } from '../billing/estimate.js';
import { GatewayError } from '../errors/gateway-error.js';
import { countTokensPlan } from '../formats/messages/count-tokens.js';
import type { Handler } from '../server/types.js';
import type { GatewayDeps } from './deps.js';
import { record, sendError } from './finish.js';
import { parseJsonObject } from './json-body.js';
import { Flow } from './flow.js';
import { commonHeaders } from './response-headers.js';
import { runStages, unwind } from './stage.js';
import { unmeteredChain } from './unmetered.js';

const ROUTE = '/v1/messages/count_tokens';

/**
 * POST /v1/messages/count_tokens: counts system blocks, messages, image data and tool schemas exactly
 * (o200k in the worker pool, the organization's fair share, plus per-image estimates). No inference, no
 * hold, $0; behind the key's limits like every route (admission before the pool is asked for anything).
 */
export function countTokensHandler(deps: GatewayDeps): Handler {
  const chain = unmeteredChain(deps);
  return async (req, res) => {
    const f = new Flow(req, ROUTE, true);
    const st = f.st;
    try {
      await runStages(chain, f);
      const key = st.principal!.key;
      const body = parseJsonObject(req.body, deps.config.maxJsonDepth);
      const plan = countTokensPlan(body);
      const model = typeof body.model === 'string' ? body.model : '';
      const catalog = deps.catalog();
      if (!catalog.routable(model, key) && !catalog.alias(model, key)) {
        throw new GatewayError('model_not_found', { message: `The model ${model} does not exist or is not available.` });
      }
      let counted: number;
      try {
        counted = await deps.pool.run('countTokens', { texts: plan.texts }, { tenant: f.orgId });
      } catch (e) {
        throw new GatewayError('service_unavailable', { message: 'Token counting is temporarily unavailable.', cause: e });
      }
      const input = counted + plan.imageTokens + framingTokens(plan.messageCount);
      st.servedModel = model;
      st.priced = true;
      st.cost = 0;
      st.status = 200;
      res.send(200, commonHeaders(st, true, 'application/json'), JSON.stringify({ input_tokens: input }));
    } catch (err) {
      sendError(deps, st, res, err);
    } finally {
      record(deps, st, ROUTE);
      await unwind(chain, f); // answered: now give the concurrency lease back
    }
  };
}
