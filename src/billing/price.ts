import type { ModelPricing } from '../config/schema.js';
import type { NanoUsd } from './money.js';

/** Usage as a provider reports it; inputTokens excludes cache-read and cache-write tokens. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

/** 1 USD per million tokens == 1000 nano-USD per token. */
const NANO_PER_TOKEN_PER_USD_PER_M = 1000;

/**
 * Exact list-price cost in nano-USD: every token class at its own rate, summed, rounded once.
 * Reasoning tokens are already part of output tokens (billed as output), as every provider reports them.
 * Cache reads/writes fall back to the input rate where the provider does not price them separately.
 */
export function costOf(pricing: ModelPricing, u: TokenUsage): NanoUsd {
  const perM =
    u.inputTokens * pricing.input +
    u.outputTokens * pricing.output +
    u.cacheReadTokens * (pricing.cacheRead ?? pricing.input) +
    u.cacheWriteTokens * (pricing.cacheWrite ?? pricing.input);
  return Math.round(perM * NANO_PER_TOKEN_PER_USD_PER_M);
}

/** Hold size: worst case of the given input token bound and requested output at list price. */
export function holdOf(pricing: ModelPricing, inputTokens: number, maxOutputTokens: number): NanoUsd {
  const inRate = Math.max(pricing.input, pricing.cacheWrite ?? 0);
  return Math.ceil((inputTokens * inRate + maxOutputTokens * pricing.output) * NANO_PER_TOKEN_PER_USD_PER_M);
}

/** Everything billed on (x-svc-total-tokens): reconciles against the cost, cache tokens included. */
export function billedTokens(u: TokenUsage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}
