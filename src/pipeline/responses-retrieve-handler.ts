import { GatewayError } from '../errors/gateway-error.js';
import type { ResponsesStore } from '../responses-store/responses-store.js';
import type { Handler } from '../server/types.js';
import type { GatewayDeps } from './deps.js';
import { record, sendError } from './finish.js';
import { commonHeaders } from './response-headers.js';
import { Flow } from './flow.js';
import { runStages, unwind } from './stage.js';
import { unmeteredChain } from './unmetered.js';

const ROUTE = '/v1/responses';
const PREFIX = `${ROUTE}/`;

/**
 * GET /v1/responses/{id} (the openai SDK's `responses.retrieve`): a stored response of the key's
 * organization, unmetered (cost 0, exact). Unknown, expired, `store: false` and foreign ids are all 404.
 */
export function retrieveResponseHandler(deps: GatewayDeps, store: ResponsesStore): Handler {
  const chain = unmeteredChain(deps);
  return async (req, res) => {
    const f = new Flow(req, ROUTE, false);
    const st = f.st;
    try {
      await runStages(chain, f); // the key, its status in the Store (revocation) and its limits
      const principal = st.principal!;
      let id: string;
      try {
        id = decodeURIComponent(req.path.slice(PREFIX.length));
      } catch {
        throw new GatewayError('not_found', { message: 'Malformed response id.', param: 'response_id' });
      }
      const response = await store.retrieve(principal.org.id, id);
      if (!response) throw new GatewayError('not_found', { message: `No stored response ${JSON.stringify(id)} in this organization.`, param: 'response_id' });
      st.priced = true;
      st.cost = 0;
      if (typeof response.model === 'string') st.servedModel = response.model;
      st.status = 200;
      res.send(200, commonHeaders(st, true, 'application/json'), JSON.stringify(response));
    } catch (err) {
      sendError(deps, st, res, err);
    } finally {
      record(deps, st, `${ROUTE}/{id}`);
      await unwind(chain, f); // answered: now give the concurrency lease back
    }
  };
}
