import type { TokenUsage } from '../../billing/price.js';
import { num } from '../usage-tap.js';

/**
 * OpenAI usage: prompt_tokens includes cached tokens (prompt_tokens_details.cached_tokens), and
 * completion_tokens includes reasoning tokens (completion_tokens_details.reasoning_tokens).
 * Our TokenUsage bills cached tokens separately, so they are moved out of inputTokens.
 */
export function fromOpenAIUsage(u: Record<string, unknown>): TokenUsage {
  const pd = (u.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cd = (u.completion_tokens_details ?? {}) as Record<string, unknown>;
  const prompt = num(u.prompt_tokens);
  const cached = Math.min(num(pd.cached_tokens), prompt);
  return {
    inputTokens: prompt - cached,
    outputTokens: num(u.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: num(cd.reasoning_tokens),
  };
}
