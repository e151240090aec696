/** The OpenAI dialect: chat completions under any prefix, OpenAI error bodies for injected faults. */
import type { Dialect } from '../dialect.js';
import { handleChatCompletions } from './chat.js';
import { openaiFaultError } from './errors.js';

export const openaiDialect: Dialect = {
  name: 'openai',
  routes: [{ method: 'POST', pattern: /\/v1\/chat\/completions$/, handle: handleChatCompletions }],
  faultError: openaiFaultError,
};

export { countChatPromptTokens, planAnswer, TOOL_ARGUMENTS } from './answer.js';
