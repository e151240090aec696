import { promptSize, typicalTokens } from '../billing/estimate.js';
import { GatewayError } from '../errors/gateway-error.js';
import { checkControlReferences, compressionVerdict, takeControlFields, takeMessageControls } from './control-fields.js';
import type { TextFlow } from './flow.js';
import { parseJsonBody } from './json-body.js';
import type { Stage } from './stage.js';
import { parseTags } from './tags.js';

/** Text routes take JSON only (checked before the key, as the contract's refusal tests expect). */
export const jsonContentType: Stage<TextFlow> = {
  name: 'content-type',
  run(f) {
    const ctype = f.req.headers.get('content-type') ?? '';
    if (!ctype.toLowerCase().startsWith('application/json')) {
      throw new GatewayError('invalid_request', { message: 'Content-Type must be application/json.' });
    }
  },
};

/**
 * Parses and validates the body in the client's format, takes the svc_* / legacy_* control fields, and
 * sizes the prompt (a cheap byte bound; exact counting waits until after admission). No undo.
 */
export function decodeStage(maxJsonDepth: number): Stage<TextFlow> {
  return {
    name: 'decode',
    async run(f) {
      const { st, req, fe } = f;
      const { json: body, modelSpan } = parseJsonBody(req.body, maxJsonDepth);
      const { fields, touched: topLevel } = takeControlFields(body, fe.shape);
      const touched = takeMessageControls(body) || topLevel;
      checkControlReferences(fields);
      st.compression = compressionVerdict(req.headers.get('x-svc-compress'), st.principal!.key.neverCompress);
      // There is no response cache yet: a cacheable route reports every answer as a miss, or bypass on request.
      if (!fields.cache) st.responseCache = 'bypass';
      else if (fe.cacheable) st.responseCache = 'miss';
      if (fe.expand) await fe.expand(body, st.principal!.org.id); // stored responses state (item_reference, previous_response_id)
      const p = fe.prepare(body, req.body, touched, modelSpan);
      st.requestedModel = p.model;
      st.user = p.user;
      st.tags = parseTags(req.headers.get('x-svc-tags'));
      f.fields = fields;
      f.p = p;
      f.size = promptSize(p.texts, p.messageCount);
      f.admitTokens = typicalTokens(f.size);
    },
  };
}
