/** The OpenAI dialect: chat completions and moderations under any prefix, OpenAI error bodies for injected faults. */
import type { Dialect } from '../dialect.js';
import { handleChatCompletions } from './chat.js';
import { openaiFaultError } from './errors.js';
import { handleModerations } from './moderations.js';

export const openaiDialect: Dialect = {
  name: 'openai',
  routes: [
    { method: 'POST', pattern: /\/v1\/chat\/completions$/, handle: handleChatCompletions },
    { method: 'POST', pattern: /\/v1\/moderations$/, handle: handleModerations },
  ],
  faultError: openaiFaultError,
};

export { countChatPromptTokens, planAnswer, TOOL_ARGUMENTS } from './answer.js';
