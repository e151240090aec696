import type { TokenUsage } from '../../billing/price.js';
import { num } from '../usage-tap.js';

/**
 * Gemini `usageMetadata` -> TokenUsage. promptTokenCount includes cachedContentTokenCount (moved out of
 * input, billed at the cache rate); candidatesTokenCount excludes thoughtsTokenCount, which is billed as
 * output, so output = candidates + thoughts; toolUsePromptTokenCount (tool results fed back by the
 * service) is billed as input.
 */
export function fromGeminiUsage(u: Record<string, unknown>): TokenUsage {
  const prompt = num(u.promptTokenCount);
  const cached = Math.min(num(u.cachedContentTokenCount), prompt);
  const thoughts = num(u.thoughtsTokenCount);
  return {
    inputTokens: prompt - cached + num(u.toolUsePromptTokenCount),
    outputTokens: num(u.candidatesTokenCount) + thoughts,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: thoughts,
  };
}
