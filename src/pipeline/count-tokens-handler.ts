import { framingTokens } from '../billing/estimate.js';
import { GatewayError } from '../errors/gateway-error.js';
import { countTokensPlan } from '../formats/messages/count-tokens.js';
import type { Handler } from '../server/types.js';
import type { GatewayDeps } from './deps.js';
import { record, sendError } from './finish.js';
import { parseJsonObject } from './json-body.js';
import { commonHeaders } from './response-headers.js';
import { RequestState } from './state.js';

const ROUTE = '/v1/messages/count_tokens';

/**
 * POST /v1/messages/count_tokens: counts system blocks, messages, image data and tool schemas exactly
 * (o200k in the worker pool, plus per-image estimates). No inference, no hold, $0.
 */
export function countTokensHandler(deps: GatewayDeps): Handler {
  return async (req, res) => {
    const st = new RequestState(req);
    try {
      st.principal = await deps.auth.authenticate(req, ROUTE, true);
      const body = parseJsonObject(req.body, deps.config.maxJsonDepth);
      const plan = countTokensPlan(body);
      const model = typeof body.model === 'string' ? body.model : '';
      const catalog = deps.catalog();
      if (!catalog.routable(model, st.principal.key) && !catalog.alias(model, st.principal.key)) {
        throw new GatewayError('model_not_found', { message: `The model ${model} does not exist or is not available.` });
      }
      let counted: number;
      try {
        counted = await deps.pool.run('countTokens', { texts: plan.texts });
      } catch (e) {
        throw new GatewayError('service_unavailable', { message: 'Token counting is temporarily unavailable.', cause: e });
      }
      const input = counted + plan.imageTokens + framingTokens(plan.messageCount);
      st.servedModel = model;
      st.priced = true;
      st.cost = 0;
      st.status = 200;
      res.send(200, { ...commonHeaders(st, true), 'content-type': 'application/json' }, JSON.stringify({ input_tokens: input }));
    } catch (err) {
      sendError(deps, st, res, err);
    } finally {
      record(deps, st, ROUTE);
    }
  };
}
