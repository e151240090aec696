/**
 * The row for self-hosted OpenAI-compatible servers (vLLM, Ollama's /v1, llama.cpp server). They take
 * `max_tokens` (not all know `max_completion_tokens`), often have no developer role in their chat
 * templates, accept `top_k` as an extension and ignore fields they do not know. Usage in streams is
 * asked for but may not come: the decoder finishes without it and the catalog decides the cost status.
 */
import { OPENAI_PARAMS, type ChatParams } from '../openai/params.js';

export const OPENAI_COMPATIBLE_PARAMS: ChatParams = Object.freeze({
  ...OPENAI_PARAMS,
  provider: 'openai-compatible',
  maxTokensField: 'max_tokens',
  developerRole: 'system',
  accepts: { user: true, reasoningEffort: true, topK: true, n: true, names: true, openaiExtensions: false },
});
