/**
 * The Mistral dialect. Mistral's path is OpenAI's (`/v1/chat/completions`), so it is told apart by a path
 * marker: a simulated Mistral deployment lives at `{prefix}/mistral/v1/...` (SDK `serverURL` or endpoint
 * `baseUrl` `{sim}{prefix}/mistral[/v1]`); the prefix before `/mistral` is the endpoint for config and
 * stats. The marker route must precede the OpenAI suffix route in DIALECTS (first match wins).
 */
import type { Dialect } from '../dialect.js';
import { handleMistralChat } from './chat.js';
import { mistralFaultError } from './errors.js';

export const mistralDialect: Dialect = {
  name: 'mistral',
  routes: [{ method: 'POST', pattern: /\/mistral\/v1\/chat\/completions$/, handle: handleMistralChat }],
  faultError: mistralFaultError,
};
