/** Canonical response -> messages-format `message` JSON (contract: "Messages-format response"). */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalResponse, JsonObject, JsonValue, StopReason } from '../../canonical/types.js';
import type { EncodeContext } from '../format.js';

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** Canonical -> messages stop_reason; a content filter is Anthropic's `refusal`, an upstream error ends the turn. */
export function messagesStopReason(r: StopReason): MessagesStopReason {
  switch (r) {
    case 'length':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

export const messageId = (ctx: EncodeContext): string => `msg_${ctx.requestId}`;

/** `input_tokens` excludes cache reads and writes, exactly like canonical inputTokens. */
export function messagesUsage(u: TokenUsage): JsonObject {
  return {
    input_tokens: u.inputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    output_tokens: u.outputTokens,
  };
}

/**
 * A tool call's arguments as the `input` object. Arguments that are not a JSON object (an upstream cut off
 * mid-call, a model that wrote bad JSON) become `{}`: messages clients require an object here.
 */
export function toolInput(args: string): JsonObject {
  if (args.trim() === '') return {};
  try {
    const v = JSON.parse(args) as JsonValue;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function encodeMessagesResponse(res: CanonicalResponse, ctx: EncodeContext): JsonObject {
  const content: JsonValue[] = res.content.map((part): JsonObject => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'tool_call') return { type: 'tool_use', id: part.id, name: part.name, input: toolInput(part.arguments) };
    if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
    return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
  });
  const stopReason = messagesStopReason(res.stopReason);
  return {
    id: messageId(ctx),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? res.stopSequence : null,
    usage: messagesUsage(res.usage),
  };
}
