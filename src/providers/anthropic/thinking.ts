/**
 * Extended thinking: the canonical reasoning request -> Anthropic's `thinking: {type: 'enabled',
 * budget_tokens}`. Shared by every endpoint that serves Claude (the direct API, and Claude models behind
 * Bedrock's `additionalModelRequestFields`).
 *
 * Anthropic's rules (Messages API reference, "Extended thinking"): `budget_tokens` >= 1024 and
 * < `max_tokens`; thinking is incompatible with forced tool use (`tool_choice` any/tool), with a changed
 * `temperature` or `top_k`, and `top_p` must stay in [0.95, 1].
 */
import type { ReasoningConfig, ToolChoice } from '../../canonical/types.js';

/** Anthropic's minimum thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * OpenAI-style effort -> thinking budget in tokens. The steps follow Anthropic's guidance to start at the
 * 1024 minimum and raise the budget in increments; `high` stays below the 32k where Anthropic recommends
 * batch processing instead.
 */
export const EFFORT_BUDGET: Readonly<Record<NonNullable<ReasoningConfig['effort']>, number>> = Object.freeze({
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24_576,
});

/**
 * The thinking budget to send, or null for no thinking. An explicit `budgetTokens` wins over `effort`.
 * The budget is cut to `maxTokens - 1` (the API demands budget < max_tokens, and max_tokens is the cap the
 * credit hold was placed for); if that leaves less than the 1024 minimum, thinking is left off rather
 * than failing the request. A forced tool choice also leaves thinking off: the API rejects the pair, and
 * the tool call is the caller's hard requirement while thinking is a quality hint.
 */
export function thinkingBudget(reasoning: ReasoningConfig | null, maxTokens: number, toolChoice: ToolChoice | null): number | null {
  if (reasoning === null) return null;
  const wanted = reasoning.budgetTokens ?? (reasoning.effort ? EFFORT_BUDGET[reasoning.effort] : 0);
  if (wanted <= 0) return null;
  if (toolChoice !== null && (toolChoice.type === 'required' || toolChoice.type === 'tool')) return null;
  const budget = Math.min(Math.floor(wanted), maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? budget : null;
}

/** Temperature for Anthropic models: the API accepts 0..1, chat clients may send up to 2 (clamped to 1). */
export function clampTemperature(t: number): number {
  return Math.min(1, Math.max(0, t));
}

/** With thinking on, top_p must be within [0.95, 1]. */
export function thinkingTopP(topP: number): number {
  return Math.min(1, Math.max(0.95, topP));
}
