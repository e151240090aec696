import { invalid } from '../errors/gateway-error.js';
import type { Candidate } from './chain.js';
import type { Prepared } from './front-end.js';

/**
 * Refuses, before admission and the hold, an output the routing chain cannot deliver: `n > 1` choices or
 * token log probabilities reach the client only through the chat byte passthrough of an upstream that
 * serves them (the canonical response carries one choice and no logprobs). Serving one choice or
 * `logprobs: null` instead would be a silent wrong answer (issue "The clients applications really use", 7).
 */
export function checkOutputCapabilities(chain: readonly Candidate[], p: Prepared): void {
  for (const c of chain) {
    const caps = c.adapter.capabilities;
    const viaPassthrough = p.passthrough !== null && caps.chatPassthrough;
    if (p.n > 1 && !(viaPassthrough && caps.choices === true)) {
      throw invalid(`n > 1 is not available for model ${c.model.id}: its provider returns one choice per request here.`, 'n');
    }
    if (p.logprobs === true && !(viaPassthrough && caps.logprobs === true)) {
      throw invalid(`logprobs are not available for model ${c.model.id}: its provider does not return them here.`, 'logprobs');
    }
  }
}
