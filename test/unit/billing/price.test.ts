import { describe, expect, it } from 'vitest';
import { formatUsd, usdToNano } from '../../../src/billing/money.js';
import { billedTokens, costOf, holdOf } from '../../../src/billing/price.js';
import { fromOpenAIUsage } from '../../../src/providers/openai/usage.js';

describe('list-price math in nano-USD', () => {
  const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
  it('prices every token class at its own rate, rounded once', () => {
    const u = { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 2000, cacheWriteTokens: 100, reasoningTokens: 0 };
    // 1000*3 + 500*15 + 2000*0.3 + 100*3.75 = 11475 USD/M -> 0.011475 USD
    expect(costOf(sonnet, u)).toBe(11_475_000);
    expect(formatUsd(costOf(sonnet, u))).toBe('0.011475');
    expect(billedTokens(u)).toBe(3600);
  });
  it('fractional nano prices stay exact', () => {
    const flash = { input: 0.1, output: 0.4, cacheRead: 0.025 };
    expect(costOf(flash, { inputTokens: 1, outputTokens: 0, cacheReadTokens: 1, cacheWriteTokens: 0, reasoningTokens: 0 })).toBe(125);
  });
  it('holds cover input at the highest input rate plus max output', () => {
    expect(holdOf(sonnet, 100, 10)).toBe(Math.ceil((100 * 3.75 + 10 * 15) * 1000));
  });
  it('formats and converts', () => {
    expect(formatUsd(1234)).toBe('0.000001234');
    expect(formatUsd(usdToNano(5))).toBe('5');
    expect(formatUsd(0)).toBe('0');
  });
  it('OpenAI usage moves cached tokens out of prompt tokens', () => {
    expect(fromOpenAIUsage({ prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 60 }, completion_tokens_details: { reasoning_tokens: 5 } })).toEqual({
      inputTokens: 40,
      outputTokens: 20,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
      reasoningTokens: 5,
    });
  });
});
