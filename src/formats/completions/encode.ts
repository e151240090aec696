/** Canonical response(s) -> `text_completion` JSON (contract: "Legacy text completion"). */
import type { CanonicalResponse, JsonObject, StopReason } from '../../canonical/types.js';
import { openaiUsage, sumUsage } from '../chat-completions/usage.js';
import type { EncodeContext } from '../format.js';
import type { CompletionsPlan } from './decode.js';

/** What a legacy completion answer needs beyond the canonical response (the request's echo and n). */
export interface CompletionsEncodeContext extends EncodeContext {
  /** With `echo: true`: the prompt of each prompt index, prepended to its choices' text. */
  echoPrompts?: readonly string[];
  /** Choices per prompt (the request's `n`), to find a choice's prompt; default 1. */
  n?: number;
}

/** Extends the request's own context in place (a field added to a spread of it made a hidden class per request). */
export function completionsEncodeContext(ctx: EncodeContext, plan: CompletionsPlan): CompletionsEncodeContext {
  const out: CompletionsEncodeContext = ctx;
  out.n = plan.requests[0]?.n ?? 1;
  if (plan.echo) out.echoPrompts = plan.prompts;
  return out;
}

/** `finish_reason` of a text completion: `stop`, `length` or `content_filter` (no tools on this route). */
export function completionFinishReason(r: StopReason): 'stop' | 'length' | 'content_filter' {
  return r === 'length' || r === 'content_filter' ? r : 'stop';
}

export const completionId = (ctx: EncodeContext): string => `cmpl-${ctx.requestId}`;

/**
 * Responses in prompt-major order (prompt 0 choices, prompt 1 choices, ...) as one answer; usage is their
 * sum. `logprobs` is always null here: the canonical response carries none (an OpenAI upstream serving the
 * same format natively returns them on the byte fast path).
 */
export function encodeCompletions(responses: readonly CanonicalResponse[], ctx: CompletionsEncodeContext): JsonObject {
  const n = ctx.n ?? 1;
  return {
    id: completionId(ctx),
    object: 'text_completion',
    created: ctx.created,
    model: ctx.model,
    choices: responses.map((res, index) => ({
      text: (ctx.echoPrompts?.[Math.floor(index / n)] ?? '') + textOf(res),
      index,
      logprobs: null,
      finish_reason: completionFinishReason(res.stopReason),
    })),
    usage: openaiUsage(sumUsage(responses.map((r) => r.usage))),
  };
}

function textOf(res: CanonicalResponse): string {
  let text = '';
  for (const part of res.content) if (part.type === 'text') text += part.text;
  return text;
}
