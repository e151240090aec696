/**
 * A generic OpenAI-compatible upstream (vLLM, Ollama, llama.cpp): OpenAI's URL shape, optional Bearer
 * auth (`apiKeyEnv: null` for an open server), the self-hosted parameter row. Pricing is the catalog's
 * business: a model with `pricing: null` is served and reported `x-svc-cost-status: unpriced`.
 */
import type { ProviderAdapter } from '../adapter.js';
import { bearerAuth } from '../openai/auth.js';
import { chatAdapter, chatCompletionsUrl } from '../openai/base.js';
import { mapOpenAIError } from '../openai/errors.js';
import { OPENAI_COMPATIBLE_PARAMS } from './params.js';

export const openaiCompatibleAdapter: ProviderAdapter = chatAdapter({
  name: 'openai-compatible',
  passthrough: true,
  params: OPENAI_COMPATIBLE_PARAMS,
  envelope: { url: chatCompletionsUrl, auth: bearerAuth },
  mapError: mapOpenAIError,
});
