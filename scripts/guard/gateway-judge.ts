/**
 * Judges a chat request exactly as the gateway does with its defaults: the texts and their provenance come from the
 * chat-completions validator (one text per message part and tool-call arguments; user and tool turns untrusted, the
 * only ones judged for prompt injection), startInspection applies the guardrails.maxChars budget, categoryScores
 * takes per category the highest score over the texts judged for it, and a category at or over the model's
 * threshold refuses the request (src/pipeline/inspect.ts). Used by scripts/guard/fresh-check.ts and
 * test/unit/guard/fresh-benign.test.ts.
 */
import type { GuardrailConfig } from '../../src/config/schema.js';
import { validateChat } from '../../src/formats/chat-completions/validate.js';
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { scoreText, type GuardModel } from '../../src/guard/model.js';
import { categoryScores, startInspection } from '../../src/pipeline/inspect.js';

/** The gateway's defaults (src/config/load.ts): enforce, the model file's thresholds, 32 768 characters scored. */
export const DEFAULT_GUARDRAILS: GuardrailConfig = { mode: 'enforce', thresholds: {}, timeoutMs: 1000, maxChars: 32_768, inlineMaxChars: 1024, loopBacklogChars: 65_536, secondStage: null };

export interface JudgedMessage {
  role: string;
  content: string;
}

export interface Refusal {
  label: GuardLabel;
  score: number;
  threshold: number;
  /** The message whose text scored highest for the label (index into the request's messages), -1 if unknown. */
  message: number;
}

export interface Judgement {
  scores: Record<GuardLabel, number>;
  /** Categories at or over their threshold: the request is refused when there is one. */
  refusals: Refusal[];
}

/** The validator needs tool_call_id on tool turns; the fixtures leave it out. */
function withToolIds(messages: readonly JudgedMessage[]): Array<Record<string, unknown>> {
  return messages.map((m, i) => (m.role === 'tool' ? { ...m, tool_call_id: `call_${i}` } : { ...m }));
}

export async function judgeRequest(model: GuardModel, messages: readonly JudgedMessage[], guardrails: GuardrailConfig = DEFAULT_GUARDRAILS): Promise<Judgement> {
  const { texts, untrusted } = validateChat({ model: 'judge', messages: withToolIds(messages) });
  const scorer = { score: (ts: string[]) => Promise.resolve(ts.map((t) => scoreText(model, t) as Record<string, number>)) };
  const pending = startInspection({ guardrails, scorer }, texts, 'judge', untrusted);
  const results = pending.scoring === null ? [] : await pending.scoring;
  const scores = categoryScores(results, pending.untrusted);
  const thresholds = { ...model.thresholds, ...guardrails.thresholds } as Record<GuardLabel, number>;
  // Map scored texts back to messages: every fixture message has exactly one non-empty text part.
  const refusals: Refusal[] = GUARD_LABELS.filter((l) => scores[l] >= thresholds[l]).map((l) => ({
    label: l,
    score: scores[l],
    threshold: thresholds[l],
    message: results.findIndex((r, j) => r[l] === scores[l] && (l !== 'prompt_injection' || pending.untrusted[j] !== false)),
  }));
  return { scores, refusals };
}
