/**
 * Canonical response -> Responses-format `response` object (contract: "Responses-format response").
 * Output items: one `message` item per canonical text block (one `output_text` part each) and one
 * `function_call` item per tool call, in canonical order. Thinking blocks are left out (a Responses
 * `reasoning` item would need OpenAI's encrypted content to be useful); their tokens stay in
 * `output_tokens_details.reasoning_tokens`. The stream encoder builds the same items.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalResponse, JsonObject, JsonValue, StopReason } from '../../canonical/types.js';
import type { EncodeContext } from '../format.js';

export type ResponseStatus = 'completed' | 'incomplete' | 'failed';

export interface ResponseOutcome {
  status: ResponseStatus;
  incompleteDetails: JsonObject | null;
  error: JsonObject | null;
}

/** stop / stop_sequence / tool_calls complete; length and content_filter are `incomplete`; error is `failed`. */
export function responseOutcome(r: StopReason | null): ResponseOutcome {
  switch (r) {
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' }, error: null };
    case 'content_filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' }, error: null };
    case 'error':
      return {
        status: 'failed',
        incompleteDetails: null,
        error: { code: 'server_error', message: 'The upstream model ended the answer with an error.' },
      };
    default:
      return { status: 'completed', incompleteDetails: null, error: null };
  }
}

export const responseId = (ctx: EncodeContext): string => `resp_${ctx.requestId}`;
/** Output item ids derive from the response id and the item's output index (stable across stream and JSON). */
export const messageItemId = (ctx: EncodeContext, outputIndex: number): string => `msg_${ctx.requestId}_${outputIndex}`;
export const callItemId = (ctx: EncodeContext, outputIndex: number): string => `fc_${ctx.requestId}_${outputIndex}`;

export const outputText = (text: string): JsonObject => ({ type: 'output_text', text, annotations: [] });

export function messageItem(id: string, status: string, content: JsonValue[]): JsonObject {
  return { type: 'message', id, status, role: 'assistant', content };
}

export function functionCallItem(id: string, callId: string, name: string, args: string, status: string): JsonObject {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status };
}

/** `input_tokens` counts every prompt token (cached included); canonical inputTokens excludes cache tokens. */
export function responsesUsage(u: TokenUsage): JsonObject {
  const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheReadTokens },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: input + u.outputTokens,
  };
}

/** The `response` object; `usage` is null while a stream is in progress. */
export function responseObject(
  ctx: EncodeContext,
  status: ResponseStatus | 'in_progress',
  outcome: Pick<ResponseOutcome, 'incompleteDetails' | 'error'>,
  output: JsonValue[],
  usage: TokenUsage | null,
): JsonObject {
  return {
    id: responseId(ctx),
    object: 'response',
    created_at: ctx.created,
    status,
    error: outcome.error,
    incomplete_details: outcome.incompleteDetails,
    model: ctx.model,
    output,
    usage: usage === null ? null : responsesUsage(usage),
  };
}

/** An item is `incomplete` when the answer was cut short, like the response itself. */
export const itemStatus = (s: ResponseStatus): string => (s === 'completed' ? 'completed' : 'incomplete');

export function encodeResponsesResponse(res: CanonicalResponse, ctx: EncodeContext): JsonObject {
  const outcome = responseOutcome(res.stopReason);
  const status = itemStatus(outcome.status);
  const output: JsonValue[] = [];
  for (const part of res.content) {
    const index = output.length;
    if (part.type === 'text') output.push(messageItem(messageItemId(ctx, index), status, [outputText(part.text)]));
    else if (part.type === 'tool_call') {
      output.push(functionCallItem(callItemId(ctx, index), part.id, part.name, part.arguments, status));
    }
  }
  const response = responseObject(ctx, outcome.status, outcome, output, res.usage);
  if (outcome.status !== 'failed') ctx.onResponse?.(response);
  return response;
}
