/**
 * Anthropic Messages response -> canonical response (API reference, "Messages" object): text, thinking,
 * redacted thinking and tool_use blocks; stop reasons; usage with the prompt-cache fields.
 */
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
 * Anthropic usage -> TokenUsage. `input_tokens` already excludes `cache_creation_input_tokens` and
 * `cache_read_input_tokens` (API reference, prompt caching "Tracking cache performance"), which is exactly
 * TokenUsage's meaning. Thinking tokens are inside `output_tokens`; newer API versions break them out in
 * `output_tokens_details.thinking_tokens`.
 */
export function fromAnthropicUsage(u: Record<string, unknown>): TokenUsage {
  const details = isRecord(u.output_tokens_details) ? u.output_tokens_details : {};
  return {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cacheReadTokens: num(u.cache_read_input_tokens),
    cacheWriteTokens: num(u.cache_creation_input_tokens),
    reasoningTokens: num(details.thinking_tokens),
  };
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  stop_sequence: 'stop_sequence',
  refusal: 'content_filter',
  // The server paused a long-running turn; the text so far is a complete answer for the client.
  pause_turn: 'stop',
  model_context_window_exceeded: 'length',
};

export function stopReasonOf(reason: unknown): StopReason {
  return typeof reason === 'string' ? (STOP_REASONS[reason] ?? 'stop') : 'stop';
}

type OutputPart = TextPart | ThinkingPart | ToolCallPart;

/** One response content block; server-side tool blocks (web search...) have no canonical form. */
function toPart(block: Record<string, unknown>): OutputPart | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block.text) };
    case 'thinking':
      return { type: 'thinking', text: str(block.thinking), ...(typeof block.signature === 'string' ? { signature: block.signature } : {}) };
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redacted: str(block.data) };
    case 'tool_use':
      return { type: 'tool_call', id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input ?? {}) };
    default:
      return null;
  }
}

function unparseable(why: string): GatewayError {
  return new GatewayError('upstream_error', { message: `The provider returned an unreadable response (${why}).` });
}

export function fromAnthropicResponse(body: Buffer): CanonicalResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw unparseable('not JSON');
  }
  if (!isRecord(parsed) || parsed.type !== 'message' || !Array.isArray(parsed.content)) throw unparseable('not a message');
  const content = parsed.content.flatMap((b) => {
    const part = isRecord(b) ? toPart(b) : null;
    return part ? [part] : [];
  });
  return {
    id: str(parsed.id),
    upstreamModel: str(parsed.model),
    // The Messages API reports no creation time.
    created: Math.floor(Date.now() / 1000),
    content,
    stopReason: stopReasonOf(parsed.stop_reason),
    stopSequence: typeof parsed.stop_sequence === 'string' ? parsed.stop_sequence : null,
    usage: fromAnthropicUsage(isRecord(parsed.usage) ? parsed.usage : {}),
  };
}
