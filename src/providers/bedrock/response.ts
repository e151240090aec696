/**
 * Converse response -> canonical response (API reference: ConverseResponse, ContentBlock, TokenUsage).
 * Converse reports no response id, creation time or model name: the id is generated, the model left
 * empty (the format layer reports the requested model id).
 */
import { randomUUID } from 'node:crypto';
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalResponse, StopReason, TextPart, ThinkingPart, ToolCallPart } from '../../canonical/types.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { num } from '../usage-tap.js';

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * TokenUsage from Converse usage: `inputTokens` counts the uncached input only, cache reads and writes come
 * apart in `cacheReadInputTokens` / `cacheWriteInputTokens` (Bedrock user guide, "Prompt caching").
 * Converse does not break reasoning tokens out of `outputTokens`.
 */
export function fromBedrockUsage(u: Record<string, unknown>): TokenUsage {
  return {
    inputTokens: num(u.inputTokens),
    outputTokens: num(u.outputTokens),
    cacheReadTokens: num(u.cacheReadInputTokens),
    cacheWriteTokens: num(u.cacheWriteInputTokens),
    reasoningTokens: 0,
  };
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  model_context_window_exceeded: 'length',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

export function stopReasonOf(reason: unknown): StopReason {
  return typeof reason === 'string' ? (STOP_REASONS[reason] ?? 'stop') : 'stop';
}

/** Claude on Bedrock returns the matched stop sequence when asked via additionalModelResponseFieldPaths. */
export function stopSequenceOf(fields: unknown): string | null {
  return isRecord(fields) && typeof fields.stop_sequence === 'string' ? fields.stop_sequence : null;
}

type OutputPart = TextPart | ThinkingPart | ToolCallPart;

function toPart(block: Record<string, unknown>): OutputPart | null {
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (isRecord(block.toolUse)) {
    const t = block.toolUse;
    return { type: 'tool_call', id: str(t.toolUseId), name: str(t.name), arguments: JSON.stringify(t.input ?? {}) };
  }
  if (isRecord(block.reasoningContent)) {
    const r = block.reasoningContent;
    if (isRecord(r.reasoningText)) {
      const signature = r.reasoningText.signature;
      return { type: 'thinking', text: str(r.reasoningText.text), ...(typeof signature === 'string' ? { signature } : {}) };
    }
    if (typeof r.redactedContent === 'string') return { type: 'thinking', text: '', redacted: r.redactedContent };
  }
  return null;
}

function unparseable(why: string): GatewayError {
  return new GatewayError('upstream_error', { message: `The provider returned an unreadable response (${why}).` });
}

export function fromConverseResponse(body: Buffer): CanonicalResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw unparseable('not JSON');
  }
  const output = isRecord(parsed) && isRecord(parsed.output) ? parsed.output : null;
  const message = output && isRecord(output.message) ? output.message : null;
  if (!isRecord(parsed) || !message || !Array.isArray(message.content)) throw unparseable('no output message');
  const content = message.content.flatMap((b) => {
    const part = isRecord(b) ? toPart(b) : null;
    return part ? [part] : [];
  });
  const stopReason = stopReasonOf(parsed.stopReason);
  return {
    id: `bedrock-${randomUUID()}`,
    upstreamModel: '',
    created: Math.floor(Date.now() / 1000),
    content,
    stopReason,
    stopSequence: stopReason === 'stop_sequence' ? stopSequenceOf(parsed.additionalModelResponseFields) : null,
    usage: fromBedrockUsage(isRecord(parsed.usage) ? parsed.usage : {}),
  };
}
