import type { ClientFormat } from '../format.js';
import { decodeResponses } from './decode.js';
import { encodeResponsesResponse } from './encode.js';
import { ResponsesStreamEncoder } from './encode-stream.js';

/** POST /v1/responses on the canonical path. */
export const responsesFormat: ClientFormat = {
  name: 'responses',
  decode: decodeResponses,
  encodeResponse: encodeResponsesResponse,
  streamEncoder: (ctx) => new ResponsesStreamEncoder(ctx),
};
