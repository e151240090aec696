import type { JsonValue } from '../canonical/types.js';
import type { ClientFormat } from '../formats/format.js';
import type { ResponsesStore } from '../responses-store/responses-store.js';
import type { FrontEnd } from './front-end.js';
import { canonicalFrontEnd } from './front-ends.js';
import type { JsonRecord } from './json-body.js';

/**
 * POST /v1/responses with the API's conversation state: `expand` resolves `previous_response_id` and
 * `item_reference` items (after auth, so per organization) before the canonical decode, and the answer is
 * stored unless the body says `store: false`.
 */
export function responsesFrontEnd(format: ClientFormat, store: ResponsesStore, onStoreError: (err: unknown) => void): FrontEnd {
  const base = canonicalFrontEnd('/v1/responses', 'responses', format);
  /** Per body: the organization and the expanded input to store with the answer. */
  const pending = new WeakMap<JsonRecord, { orgId: string; input: JsonValue[] }>();
  return {
    ...base,
    cacheable: true,
    async expand(body, orgId) {
      const input = await store.expand(orgId, body);
      if (body.store !== false) pending.set(body, { orgId, input });
    },
    prepare(body, raw, touched, modelSpan) {
      const prepared = base.prepare(body, raw, touched, modelSpan);
      const keep = pending.get(body);
      if (!keep) return prepared;
      // Set on the fresh objects, not spread into new ones: fields added to a spread made a hidden class per request.
      prepared.encodeContext = (ctx) => {
        ctx.onResponse = (response) => store.save(keep.orgId, keep.input, response, onStoreError);
        return ctx;
      };
      return prepared;
    },
  };
}
