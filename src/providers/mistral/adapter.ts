/**
 * Mistral chat completions: the OpenAI-family base with Mistral's parameter table and error bodies.
 * Not a passthrough target: a chat client's body may carry fields Mistral refuses with 422
 * (`max_completion_tokens`, `stream_options`, `user`, `seed`...), so every call takes the canonical path.
 */
import type { ProviderAdapter } from '../adapter.js';
import { bearerAuth } from '../openai/auth.js';
import { chatAdapter, chatCompletionsUrl } from '../openai/base.js';
import { mapMistralError } from './errors.js';
import { MISTRAL_PARAMS } from './params.js';

export const mistralAdapter: ProviderAdapter = chatAdapter({
  name: 'mistral',
  passthrough: false,
  params: MISTRAL_PARAMS,
  envelope: { url: chatCompletionsUrl, auth: bearerAuth },
  mapError: mapMistralError,
});
