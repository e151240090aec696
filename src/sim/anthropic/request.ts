/**
 * Decodes and validates a Messages API body the way the real API does where a gateway can get it wrong:
 * unknown top-level keys are refused ("Extra inputs are not permitted", so an unstripped svc_* field fails
 * loudly), required fields, the 0..1 temperature range, and the extended-thinking rules (budget >= 1024
 * and < max_tokens, no forced tool use, no changed temperature).
 */
import type { JsonReply } from '../http.js';
import { schemaFromInstruction } from '../json-sample.js';
import { isRecord } from '../http.js';
import { invalidRequest } from './errors.js';

const COMMON = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'cache_control', 'output_config', 'mcp_servers', 'context_management'];
const CREATE_KEYS = new Set([
  ...COMMON, 'max_tokens', 'container', 'diagnostics', 'inference_geo', 'metadata', 'service_tier', 'speed',
  'stop_sequences', 'stream', 'temperature', 'top_k', 'top_p',
]);
const COUNT_KEYS = new Set(COMMON);

export interface SimMessage {
  role: 'user' | 'assistant';
  /** Always blocks: a string content is read as one text block. */
  content: Record<string, unknown>[];
}

export type ToolChoice = { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };

export interface MessagesRequest {
  model: string;
  messages: SimMessage[];
  system: Record<string, unknown>[];
  tools: Record<string, unknown>[];
  toolChoice: ToolChoice;
  maxTokens: number;
  stop: string[];
  stream: boolean;
  /** budget_tokens when `thinking.type` is 'enabled'. */
  thinkingBudget: number | null;
  /** Structured output: `output_config.format.schema`, or the schema a system instruction asks for. */
  jsonSchema: Record<string, unknown> | null;
  /** `tool_choice.disable_parallel_tool_use` is not set: several tools may be used in one answer. */
  parallelToolUse: boolean;
}

export type ParseResult = { ok: true; request: MessagesRequest } | { ok: false; error: JsonReply };

const fail = (message: string): ParseResult => ({ ok: false, error: invalidRequest(message) });

function blocks(content: unknown): Record<string, unknown>[] | null {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) && content.every(isRecord) ? content : null;
}

function messagesOf(value: unknown): SimMessage[] | string {
  if (value === undefined) return 'messages: Field required';
  if (!Array.isArray(value)) return 'messages: Input should be a valid list';
  const out: SimMessage[] = [];
  for (const [i, m] of value.entries()) {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant')) return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const content = blocks(m.content);
    if (content === null) return `messages.${i}.content: Input should be a valid list`;
    if (content.some((b) => b.type === 'text' && b.text === '')) return 'messages: text content blocks must be non-empty';
    out.push({ role: m.role, content });
  }
  return out;
}

function toolChoiceOf(value: unknown): ToolChoice {
  if (isRecord(value)) {
    if (value.type === 'tool' && typeof value.name === 'string') return { type: 'tool', name: value.name };
    if (value.type === 'any' || value.type === 'none') return { type: value.type };
  }
  return { type: 'auto' };
}

function thinkingOf(body: Record<string, unknown>, maxTokens: number | null, toolChoice: ToolChoice): number | null | string {
  const t = body.thinking;
  if (!isRecord(t) || t.type !== 'enabled') return null;
  const budget = t.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget)) return 'thinking.enabled.budget_tokens: Field required';
  if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (maxTokens !== null && maxTokens <= budget) {
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  if (toolChoice.type === 'any' || toolChoice.type === 'tool') return 'Thinking may not be enabled when tool_choice forces tool use.';
  if (body.temperature !== undefined && body.temperature !== 1) {
    return '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility';
  }
  return budget;
}

/** `count` parses a count_tokens body (no max_tokens, no sampling or stream keys). */
export function parseMessagesRequest(json: unknown, count = false): ParseResult {
  if (!isRecord(json)) return fail('There was an issue with your request body: it must be a JSON object.');
  const allowed = count ? COUNT_KEYS : CREATE_KEYS;
  const extra = Object.keys(json).find((key) => !allowed.has(key));
  if (extra !== undefined) return fail(`${extra}: Extra inputs are not permitted`);
  if (typeof json.model !== 'string' || json.model.length === 0) return fail('model: Field required');
  let maxTokens: number | null = null;
  if (!count) {
    if (json.max_tokens === undefined) return fail('max_tokens: Field required');
    if (typeof json.max_tokens !== 'number' || !Number.isInteger(json.max_tokens) || json.max_tokens < 1) {
      return fail('max_tokens: Input should be greater than or equal to 1');
    }
    maxTokens = json.max_tokens;
  }
  const messages = messagesOf(json.messages);
  if (typeof messages === 'string') return fail(messages);
  const t = json.temperature;
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 1)) return fail('temperature: Input should be less than or equal to 1');
  const system = json.system === undefined ? [] : blocks(json.system);
  if (system === null) return fail('system: Input should be a valid string or list');
  const tools = Array.isArray(json.tools) ? json.tools.filter(isRecord) : [];
  const toolChoice = toolChoiceOf(json.tool_choice);
  const thinking = thinkingOf(json, maxTokens, toolChoice);
  if (typeof thinking === 'string') return fail(thinking);
  const stop = Array.isArray(json.stop_sequences) ? json.stop_sequences.filter((s): s is string => typeof s === 'string') : [];
  return {
    ok: true,
    request: {
      model: json.model,
      messages,
      system,
      tools,
      toolChoice,
      maxTokens: maxTokens ?? 0,
      stop,
      stream: json.stream === true,
      thinkingBudget: thinking,
      jsonSchema: structuredOutput(json.output_config, system),
      parallelToolUse: !(isRecord(json.tool_choice) && json.tool_choice.disable_parallel_tool_use === true),
    },
  };
}

function structuredOutput(config: unknown, system: readonly Record<string, unknown>[]): Record<string, unknown> | null {
  if (isRecord(config) && isRecord(config.format) && config.format.type === 'json_schema') {
    return isRecord(config.format.schema) ? config.format.schema : {};
  }
  const text = system.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
  return schemaFromInstruction(text);
}
