/** The Anthropic dialect: Messages API and count_tokens under any prefix, Anthropic error bodies for faults. */
import type { Dialect } from '../dialect.js';
import { anthropicFaultError } from './errors.js';
import { handleCountTokens, handleMessages } from './messages.js';

export const anthropicDialect: Dialect = {
  name: 'anthropic',
  routes: [
    { method: 'POST', pattern: /\/v1\/messages$/, handle: handleMessages },
    { method: 'POST', pattern: /\/v1\/messages\/count_tokens$/, handle: handleCountTokens },
  ],
  faultError: anthropicFaultError,
};

export { countInputTokens, planMessage, TOOL_INPUT } from './answer.js';
export { parseMessagesRequest } from './request.js';
