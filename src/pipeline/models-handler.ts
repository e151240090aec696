import { createHash } from 'node:crypto';
import { GatewayError } from '../errors/gateway-error.js';
import { Catalog } from '../routing/catalog.js';
import type { Handler, HeaderList } from '../server/types.js';
import type { GatewayDeps } from './deps.js';
import { record, sendError } from './finish.js';
import { Flow } from './flow.js';
import { commonHeaders } from './response-headers.js';
import { runStages, unwind } from './stage.js';
import type { RequestState } from './state.js';
import { unmeteredChain } from './unmetered.js';

const LIST_ROUTE = '/v1/models';
const PREFIX = '/v1/models/';

/** RFC 9110 If-None-Match: `*`, or a list of tags compared weakly (a W/ prefix does not matter). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Headers of an unmetered served response (decision 3: cost 0, exact). */
function unmetered(st: RequestState): HeaderList {
  st.priced = true;
  st.cost = 0;
  return commonHeaders(st, true, 'application/json');
}

/** GET /v1/models: the catalog filtered to what the key may route to. */
export function listModelsHandler(deps: GatewayDeps): Handler {
  const chain = unmeteredChain(deps);
  return async (req, res) => {
    const f = new Flow(req, LIST_ROUTE, false);
    const st = f.st;
    try {
      await runStages(chain, f);
      const key = st.principal!.key;
      const catalog = deps.catalog();
      const created = Math.min(...catalog.models.map((m) => m.created));
      const data = [
        ...catalog.visible(key).map(Catalog.view),
        ...catalog.visibleAliases(key).map((a) => Catalog.aliasView(a, created)),
      ];
      st.status = 200;
      res.send(200, unmetered(st), JSON.stringify({ object: 'list', data }));
    } catch (err) {
      sendError(deps, st, res, err);
    } finally {
      record(deps, st, LIST_ROUTE);
      await unwind(chain, f); // answered: now give the concurrency lease back
    }
  };
}

/**
 * GET /v1/models/{model_id}: ids may contain `/`. ETag + Cache-Control max-age 60 (the contract's model
 * metadata cache); unknown, restricted or out-of-scope ids are all 404 model_not_found.
 */
export function modelDetailHandler(deps: GatewayDeps): Handler {
  const chain = unmeteredChain(deps);
  return async (req, res) => {
    const f = new Flow(req, LIST_ROUTE, false);
    const st = f.st;
    try {
      await runStages(chain, f);
      const key = st.principal!.key;
      let id: string;
      try {
        id = decodeURIComponent(req.path.slice(PREFIX.length));
      } catch {
        throw new GatewayError('model_not_found', { message: 'Malformed model id.' });
      }
      const catalog = deps.catalog();
      const alias = catalog.alias(id, key);
      let body: string;
      if (alias) {
        // Router aliases reveal no candidates and no chain.
        body = JSON.stringify(Catalog.aliasView(alias, Math.min(...catalog.models.map((m) => m.created))));
        st.servedModel = alias.id;
      } else {
        const model = catalog.routable(id, key);
        if (!model) throw new GatewayError('model_not_found', { message: `The model ${id} does not exist or is not available.` });
        body = JSON.stringify(Catalog.detail(model));
        st.servedModel = model.id;
      }
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      const headers = { ...unmetered(st), etag, 'cache-control': 'private, max-age=60' };
      if (etagMatches(req.headers.get('if-none-match'), etag)) {
        st.status = 304;
        res.send(304, headers, '');
        return;
      }
      st.status = 200;
      res.send(200, headers, body);
    } catch (err) {
      sendError(deps, st, res, err);
    } finally {
      record(deps, st, `${LIST_ROUTE}/{id}`);
      await unwind(chain, f);
    }
  };
}
