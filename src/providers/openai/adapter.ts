import type { ProviderAdapter } from '../adapter.js';
import { bearerAuth } from './auth.js';
import { chatAdapter, chatCompletionsUrl } from './base.js';
import { mapOpenAIError } from './errors.js';
import { OPENAI_PARAMS } from './params.js';

/** OpenAI chat completions: byte passthrough for chat clients, the canonical path for every other format. */
export const openaiAdapter: ProviderAdapter = chatAdapter({
  name: 'openai',
  passthrough: true,
  params: OPENAI_PARAMS,
  envelope: { url: chatCompletionsUrl, auth: bearerAuth },
  mapError: mapOpenAIError,
});
