/**
 * The conversation part of a messages body (system, messages, tools, tool_choice, thinking), shared by
 * POST /v1/messages and POST /v1/messages/count_tokens.
 *
 * A user turn's `tool_result` blocks become a canonical `tool` message (one per consecutive run) and its
 * other blocks a `user` message, in their original order, so other upstreams see tool results as tool turns.
 */
import type {
  CanonicalMessage,
  ContentPart,
  ImagePart,
  ImageSource,
  ReasoningConfig,
  SystemBlock,
  TextPart,
  ThinkingPart,
  ToolChoice,
  ToolDefinition,
  ToolResultPart,
} from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { type Body, given, jsonObject, optBool, optCacheControl, optInt, optString, reqArray, reqObject, reqString } from '../fields.js';

/** Anthropic's minimum thinking budget. */
export const MIN_THINKING_BUDGET = 1024;
const MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export function decodeSystem(v: unknown): SystemBlock[] {
  if (!given(v)) return [];
  if (typeof v === 'string') return v === '' ? [] : [{ role: 'system', text: v }];
  return reqArray(v, 'system').map((raw, i) => {
    const p = `system[${i}]`;
    const b = reqObject(raw, p);
    if (b.type !== 'text') throw invalid(`${p}.type must be "text".`, `${p}.type`);
    const block: SystemBlock = { role: 'system', text: reqString(b.text, `${p}.text`, true) };
    const cc = optCacheControl(b.cache_control, `${p}.cache_control`);
    if (cc) block.cacheControl = cc;
    return block;
  });
}

export function decodeMessages(v: unknown): CanonicalMessage[] {
  const out: CanonicalMessage[] = [];
  reqArray(v, 'messages', true).forEach((raw, i) => {
    const p = `messages[${i}]`;
    const m = reqObject(raw, p);
    if (m.role !== 'user' && m.role !== 'assistant') throw invalid(`${p}.role must be "user" or "assistant".`, `${p}.role`);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : reqArray(m.content, `${p}.content`);
    if (m.role === 'assistant') {
      out.push({ role: 'assistant', content: blocks.map((b, j) => assistantBlock(b, `${p}.content[${j}]`)) });
      return;
    }
    let run: CanonicalMessage | null = null;
    blocks.forEach((b, j) => {
      const part = userBlock(b, `${p}.content[${j}]`);
      const role = part.type === 'tool_result' ? 'tool' : 'user';
      if (run?.role !== role) out.push((run = { role, content: [] }));
      run.content.push(part);
    });
    if (blocks.length === 0) out.push({ role: 'user', content: [] });
  });
  return out;
}

function userBlock(raw: unknown, p: string): ContentPart {
  const b = reqObject(raw, p);
  switch (b.type) {
    case 'text':
      return textBlock(b, p);
    case 'image':
      return imageBlock(b, p);
    case 'tool_result': {
      const part: ToolResultPart = {
        type: 'tool_result',
        toolCallId: reqString(b.tool_use_id, `${p}.tool_use_id`),
        content: toolResultContent(b.content, `${p}.content`),
      };
      const isError = optBool(b.is_error, `${p}.is_error`);
      if (isError !== undefined) part.isError = isError;
      const cc = optCacheControl(b.cache_control, `${p}.cache_control`);
      if (cc) part.cacheControl = cc;
      return part;
    }
    default:
      throw invalid(`${p}.type "${String(b.type)}" is not supported in a user message; use text, image or tool_result.`, `${p}.type`);
  }
}

function assistantBlock(raw: unknown, p: string): ContentPart {
  const b = reqObject(raw, p);
  switch (b.type) {
    case 'text':
      return textBlock(b, p);
    case 'tool_use': {
      const input = jsonObject(b.input, `${p}.input`);
      return { type: 'tool_call', id: reqString(b.id, `${p}.id`), name: reqString(b.name, `${p}.name`), arguments: JSON.stringify(input) };
    }
    case 'thinking': {
      const part: ThinkingPart = { type: 'thinking', text: reqString(b.thinking, `${p}.thinking`, true) };
      const signature = optString(b.signature, `${p}.signature`);
      if (signature !== undefined) part.signature = signature;
      return part;
    }
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redacted: reqString(b.data, `${p}.data`) };
    default:
      throw invalid(`${p}.type "${String(b.type)}" is not supported in an assistant message; use text, tool_use or thinking.`, `${p}.type`);
  }
}

function textBlock(b: Body, p: string): TextPart {
  const part: TextPart = { type: 'text', text: reqString(b.text, `${p}.text`, true) };
  const cc = optCacheControl(b.cache_control, `${p}.cache_control`);
  if (cc) part.cacheControl = cc;
  return part;
}

function imageBlock(b: Body, p: string): ImagePart {
  const part: ImagePart = { type: 'image', source: imageSource(b.source, `${p}.source`) };
  const cc = optCacheControl(b.cache_control, `${p}.cache_control`);
  if (cc) part.cacheControl = cc;
  return part;
}

function imageSource(v: unknown, p: string): ImageSource {
  const s = reqObject(v, p);
  if (s.type === 'url') return { kind: 'url', url: reqString(s.url, `${p}.url`) };
  if (s.type !== 'base64') throw invalid(`${p}.type must be "base64" or "url".`, `${p}.type`);
  const mediaType = reqString(s.media_type, `${p}.media_type`);
  if (!MEDIA_TYPES.has(mediaType)) throw invalid(`${p}.media_type must be one of ${[...MEDIA_TYPES].join(', ')}.`, `${p}.media_type`);
  return { kind: 'base64', mediaType, data: reqString(s.data, `${p}.data`) };
}

function toolResultContent(v: unknown, p: string): (TextPart | ImagePart)[] {
  if (!given(v)) return [];
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  return reqArray(v, p).map((raw, i) => {
    const b = reqObject(raw, `${p}[${i}]`);
    if (b.type === 'text') return textBlock(b, `${p}[${i}]`);
    if (b.type === 'image') return imageBlock(b, `${p}[${i}]`);
    throw invalid(`${p}[${i}].type must be "text" or "image".`, `${p}[${i}].type`);
  });
}

export function decodeTools(v: unknown): ToolDefinition[] {
  if (!given(v)) return [];
  return reqArray(v, 'tools').map((raw, i) => {
    const p = `tools[${i}]`;
    const t = reqObject(raw, p);
    if (given(t.type) && t.type !== 'custom') {
      throw invalid(`${p}.type "${String(t.type)}" is not supported: only custom tools (name, input_schema) are; server tools run on Anthropic's side only.`, `${p}.type`);
    }
    const tool: ToolDefinition = { name: reqString(t.name, `${p}.name`), parameters: jsonObject(t.input_schema, `${p}.input_schema`) };
    const description = optString(t.description, `${p}.description`);
    if (description !== undefined) tool.description = description;
    const cc = optCacheControl(t.cache_control, `${p}.cache_control`);
    if (cc) tool.cacheControl = cc;
    return tool;
  });
}

/** tool_choice `auto` / `any` / `tool` / `none`; `disable_parallel_tool_use` maps to parallelToolCalls false. */
export function decodeToolChoice(v: unknown): { toolChoice: ToolChoice | null; parallel?: boolean } {
  if (!given(v)) return { toolChoice: null };
  const c = reqObject(v, 'tool_choice');
  let toolChoice: ToolChoice;
  if (c.type === 'auto' || c.type === 'none') toolChoice = { type: c.type };
  else if (c.type === 'any') toolChoice = { type: 'required' };
  else if (c.type === 'tool') toolChoice = { type: 'tool', name: reqString(c.name, 'tool_choice.name') };
  else throw invalid('tool_choice.type must be one of auto, any, tool, none.', 'tool_choice.type');
  const disable = optBool(c.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use');
  return disable === undefined ? { toolChoice } : { toolChoice, parallel: !disable };
}

/** `{type: 'enabled', budget_tokens}` (at least 1024 and, with max_tokens, below it) or `{type: 'disabled'}`. */
export function decodeThinking(v: unknown, maxTokens: number | null): ReasoningConfig | null {
  if (!given(v)) return null;
  const t = reqObject(v, 'thinking');
  if (t.type === 'disabled') return null;
  if (t.type !== 'enabled') throw invalid('thinking.type must be "enabled" or "disabled".', 'thinking.type');
  const budget = optInt(t.budget_tokens, 'thinking.budget_tokens', MIN_THINKING_BUDGET);
  if (budget === undefined) throw invalid('thinking.budget_tokens is required when thinking is enabled.', 'thinking.budget_tokens');
  if (maxTokens !== null && budget >= maxTokens) throw invalid('thinking.budget_tokens must be less than max_tokens.', 'thinking.budget_tokens');
  return { budgetTokens: budget };
}
