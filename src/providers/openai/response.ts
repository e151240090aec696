/**
 * `chat.completion` body -> CanonicalResponse. Reads the first choice (the canonical response has one);
 * tolerates what OpenAI-compatible servers add or vary: `reasoning_content` / `reasoning` thinking text
 * (vLLM, llama.cpp, Ollama), Mistral's content-chunk arrays and object-valued tool arguments.
 */
import { ZERO_USAGE } from '../../billing/price.js';
import type { CanonicalResponse, StopReason, TextPart, ThinkingPart, ToolCallPart } from '../../canonical/types.js';
import type { ChatParams } from './params.js';
import { arr, isRec, parseUpstreamJson, rec, str } from './wire.js';

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  stop: 'stop',
  length: 'length',
  model_length: 'length', // Mistral: the model's context filled up
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
};

/** A finish_reason -> canonical stop reason; a server that says `stop` after calling tools means tool_calls. */
export function chatStopReason(reason: unknown, calledTools: boolean): StopReason {
  const mapped = (typeof reason === 'string' && STOP_REASONS[reason]) || 'stop';
  return mapped === 'stop' && calledTools ? 'tool_calls' : mapped;
}

/** Tool arguments as JSON text: most servers send a string, Mistral may send the object itself. */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/** The thinking text of a message or delta under the names servers use for it. */
export function reasoningText(m: Record<string, unknown>): string | undefined {
  return str(m.reasoning_content) ?? str(m.reasoning);
}

export interface ContentPiece {
  kind: 'text' | 'thinking';
  text: string;
}

/** `content` as a string, or Mistral-style chunks: {type:'text',text} and {type:'thinking',thinking:[...]}. */
export function contentPieces(content: unknown): ContentPiece[] {
  if (typeof content === 'string') return content.length > 0 ? [{ kind: 'text', text: content }] : [];
  const out: ContentPiece[] = [];
  for (const chunk of arr(content)) {
    const c = rec(chunk);
    if (c.type === 'text' && typeof c.text === 'string') out.push({ kind: 'text', text: c.text });
    else if (c.type === 'thinking') {
      const text = arr(c.thinking)
        .map((t) => str(rec(t).text) ?? '')
        .join('');
      if (text.length > 0) out.push({ kind: 'thinking', text });
    }
  }
  return out;
}

function toolCalls(v: unknown, responseId: string): ToolCallPart[] {
  return arr(v).flatMap((call, i) => {
    const c = rec(call);
    const fn = rec(c.function);
    const name = str(fn.name);
    if (name === undefined) return [];
    const id = str(c.id) ?? `call_${responseId}_${i}`;
    return [{ type: 'tool_call', id, name, arguments: argumentsText(fn.arguments) }];
  });
}

export function fromChatResponse(body: Buffer | string, p: ChatParams): CanonicalResponse {
  const json = parseUpstreamJson(body, p.provider);
  const id = str(json.id) ?? '';
  const choice = rec(arr(json.choices)[0]);
  const message = rec(choice.message);
  const content: (TextPart | ThinkingPart | ToolCallPart)[] = [];
  const thinking = reasoningText(message);
  if (thinking) content.push({ type: 'thinking', text: thinking });
  const pieces = contentPieces(message.content);
  if (pieces.length === 0 && typeof message.refusal === 'string') pieces.push({ kind: 'text', text: message.refusal });
  for (const piece of pieces) {
    const last = content.at(-1);
    const type = piece.kind;
    if (last && last.type === type) last.text += piece.text;
    else content.push({ type, text: piece.text });
  }
  const calls = toolCalls(message.tool_calls, id);
  content.push(...calls);
  return {
    id,
    upstreamModel: str(json.model) ?? '',
    created: typeof json.created === 'number' ? json.created : Math.floor(Date.now() / 1000),
    content,
    stopReason: chatStopReason(choice.finish_reason, calls.length > 0),
    stopSequence: null,
    usage: isRec(json.usage) ? p.usage(json.usage) : { ...ZERO_USAGE },
  };
}
