import type { TokenUsage } from '../../billing/price.js';
import type { JsonObject } from '../../canonical/types.js';

/**
 * OpenAI usage (chat and legacy completions): `prompt_tokens` counts every prompt token, cached ones included,
 * while canonical `inputTokens` excludes cache reads and writes; `cached_tokens` is the cache-read share.
 * `completion_tokens` includes reasoning tokens on both sides.
 */
export function openaiUsage(u: TokenUsage): JsonObject {
  const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.outputTokens,
    total_tokens: prompt + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}

/** Usage of several canonical responses served as the choices of one answer (n > 1, prompt arrays). */
export function sumUsage(all: readonly TokenUsage[]): TokenUsage {
  const s: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  for (const u of all) {
    s.inputTokens += u.inputTokens;
    s.outputTokens += u.outputTokens;
    s.cacheReadTokens += u.cacheReadTokens;
    s.cacheWriteTokens += u.cacheWriteTokens;
    s.reasoningTokens += u.reasoningTokens;
  }
  return s;
}
