import type { ClientFormat } from '../format.js';
import { decodeCompletion } from './decode.js';
import { encodeCompletions } from './encode.js';
import { CompletionsStreamEncoder } from './encode-stream.js';

/**
 * POST /v1/completions, single-prompt case. Pass a `CompletionsEncodeContext` (see `completionsEncodeContext`)
 * to honour `echo`; multi-prompt bodies go through `planCompletions` / `encodeCompletions`.
 */
export const completionsFormat: ClientFormat = {
  name: 'completions',
  decode: decodeCompletion,
  encodeResponse: (res, ctx) => encodeCompletions([res], ctx),
  streamEncoder: (ctx) => new CompletionsStreamEncoder(ctx),
};
