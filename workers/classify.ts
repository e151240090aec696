/**
 * svc/auto prompt classifier (worker task). A transparent rule model over cheap features: tool use,
 * context size, and reasoning cues (math/logic vocabulary, symbol density, multi-step instructions, code).
 * Leaf module: no gateway imports.
 */
export type Tier = 'simple' | 'tools' | 'long' | 'reasoning';

export interface ClassifyInput {
  /** The latest user turn (what the model must do now). */
  last: string;
  /** Estimated prompt tokens of the whole conversation. */
  promptTokens: number;
  hasTools: boolean;
  /** The client asked for reasoning (reasoning_effort, thinking). */
  wantsReasoning: boolean;
}

export interface ClassifyResult {
  tier: Tier;
  /** Reasoning score (0..1) behind the decision, for logs and the confusion report. */
  reasoning: number;
}

export const LONG_CONTEXT_TOKENS = 24_000;

const REASONING_WORDS =
  /\b(prove|proof|derive|derivation|theorem|lemma|integral|derivative|equation|probability|expected value|optimi[sz]e|complexity|algorithm|recurrence|invariant|contradiction|induction|step[- ]by[- ]step|reason(?:ing)? carefully|trade-?offs?|why does|explain why|rigorous|puzzle|riddle|logic(?:al)?|deduce|minimi[sz]e|maximi[sz]e|asymptotic|big-?o|combinatori\w*|eigen\w*|matri(?:x|ces)|debug|race condition|deadlock)\b/gi;
const MATH_SYMBOLS = /[=^√∑∫≤≥≠±×÷π∞<>]|\d+\s*[+\-*/]\s*\d+/g;
const CODE = /```|\bfunction\b|\bdef\b|\bclass\b|=>|;\s*$/gm;

export function classify(input: ClassifyInput): ClassifyResult {
  const text = input.last.slice(0, 8_000);
  const words = Math.max(1, text.split(/\s+/).length);
  const cues = (text.match(REASONING_WORDS) ?? []).length;
  const symbols = (text.match(MATH_SYMBOLS) ?? []).length;
  const code = (text.match(CODE) ?? []).length;
  const steps = (text.match(/^\s*(\d+[.)]|-|\*)\s+/gm) ?? []).length;
  let reasoning = Math.min(1, cues * 0.3 + Math.min(symbols / words, 0.3) * 2 + Math.min(code, 3) * 0.1 + Math.min(steps, 4) * 0.05);
  if (input.wantsReasoning) reasoning = Math.max(reasoning, 0.9);
  if (input.hasTools) return { tier: 'tools', reasoning };
  if (input.promptTokens >= LONG_CONTEXT_TOKENS) return { tier: 'long', reasoning };
  if (reasoning >= 0.5) return { tier: 'reasoning', reasoning };
  return { tier: 'simple', reasoning };
}
