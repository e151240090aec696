/** Canonical response -> `chat.completion` JSON (contract: "Chat completion"). */
import type { CanonicalResponse, JsonObject, JsonValue, StopReason } from '../../canonical/types.js';
import type { EncodeContext } from '../format.js';
import { openaiUsage, sumUsage } from './usage.js';

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Canonical stop reason -> chat `finish_reason`. A matched stop sequence is `stop` in this format; `error`
 * (an upstream that ended abnormally but still produced an answer) has no chat value and reads as `stop`.
 */
export function chatFinishReason(r: StopReason): ChatFinishReason {
  switch (r) {
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return r;
    default:
      return 'stop';
  }
}

/** Completion ids derive from the gateway request id so a client's id doubles as the support reference. */
export const chatCompletionId = (ctx: EncodeContext): string => `chatcmpl-${ctx.requestId}`;

/**
 * Several canonical responses as the choices of one answer, in order (`n` > 1 served by several upstream
 * calls); usage is their sum. Thinking blocks have no chat field and are left out (their tokens stay in
 * `completion_tokens_details.reasoning_tokens`).
 */
export function encodeChatChoices(responses: readonly CanonicalResponse[], ctx: EncodeContext): JsonObject {
  return {
    id: chatCompletionId(ctx),
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: responses.map((res, index) => ({
      index,
      message: chatMessage(res),
      logprobs: null,
      finish_reason: chatFinishReason(res.stopReason),
    })),
    usage: openaiUsage(sumUsage(responses.map((r) => r.usage))),
  };
}

export function encodeChatResponse(res: CanonicalResponse, ctx: EncodeContext): JsonObject {
  return encodeChatChoices([res], ctx);
}

function chatMessage(res: CanonicalResponse): JsonObject {
  let text: string | null = null;
  const toolCalls: JsonValue[] = [];
  for (const part of res.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    }
  }
  const message: JsonObject = { role: 'assistant', content: text ?? (toolCalls.length > 0 ? null : ''), refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}
