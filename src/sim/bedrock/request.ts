/**
 * Decodes and validates a Converse / ConverseStream body the way Bedrock does where a gateway can get it
 * wrong: messages required and starting with a user turn, a toolConfig whenever tool blocks appear,
 * inferenceConfig ranges, and, for Claude models, Anthropic's thinking rules inside
 * additionalModelRequestFields.
 */
import type { JsonReply } from '../http.js';
import { isRecord } from '../http.js';
import { constraint, validation } from './errors.js';

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown>[];
}

export type ToolChoice = { kind: 'auto' | 'any' } | { kind: 'tool'; name: string };

export interface ConverseRequest {
  modelId: string;
  messages: ConverseMessage[];
  system: Record<string, unknown>[];
  /** toolSpec names in order; `tools` is the raw list (counted in input tokens). */
  toolNames: string[];
  tools: unknown[];
  toolChoice: ToolChoice;
  maxTokens: number | null;
  stop: string[];
  thinkingBudget: number | null;
  /** additionalModelResponseFieldPaths asked for `/stop_sequence`. */
  wantsStopSequence: boolean;
}

export type ParseResult = { ok: true; request: ConverseRequest } | { ok: false; error: JsonReply };

const fail = (error: JsonReply): ParseResult => ({ ok: false, error });

function messagesOf(value: unknown): ConverseMessage[] | JsonReply {
  if (value === undefined || value === null) return constraint('messages', 'null', 'Member must not be null');
  if (!Array.isArray(value)) return validation('Unexpected field type');
  const out: ConverseMessage[] = [];
  for (const [i, m] of value.entries()) {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant')) {
      return constraint(`messages.${i + 1}.member.role`, isRecord(m) ? `'${String(m.role)}'` : 'null', 'Member must satisfy enum value set: [user, assistant]');
    }
    if (!Array.isArray(m.content) || !m.content.every(isRecord)) return constraint(`messages.${i + 1}.member.content`, 'null', 'Member must not be null');
    out.push({ role: m.role, content: m.content });
  }
  if (out[0]?.role !== 'user') return validation('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  return out;
}

function toolsOf(toolConfig: unknown): { names: string[]; tools: unknown[]; choice: ToolChoice } {
  if (!isRecord(toolConfig) || !Array.isArray(toolConfig.tools)) return { names: [], tools: [], choice: { kind: 'auto' } };
  const names = toolConfig.tools.flatMap((t) => (isRecord(t) && isRecord(t.toolSpec) && typeof t.toolSpec.name === 'string' ? [t.toolSpec.name] : []));
  const c = toolConfig.toolChoice;
  let choice: ToolChoice = { kind: 'auto' };
  if (isRecord(c) && isRecord(c.tool) && typeof c.tool.name === 'string') choice = { kind: 'tool', name: c.tool.name };
  else if (isRecord(c) && isRecord(c.any)) choice = { kind: 'any' };
  return { names, tools: toolConfig.tools, choice };
}

function inferenceOf(value: unknown): { maxTokens: number | null; stop: string[] } | JsonReply {
  const cfg = isRecord(value) ? value : {};
  const { maxTokens, temperature, topP } = cfg;
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    return constraint('inferenceConfig.maxTokens', `'${String(maxTokens)}'`, 'Member must have value greater than or equal to 1');
  }
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 1)) {
    return constraint('inferenceConfig.temperature', `'${String(temperature)}'`, 'Member must have value less than or equal to 1');
  }
  if (topP !== undefined && (typeof topP !== 'number' || topP < 0 || topP > 1)) {
    return constraint('inferenceConfig.topP', `'${String(topP)}'`, 'Member must have value less than or equal to 1');
  }
  const stop = Array.isArray(cfg.stopSequences) ? cfg.stopSequences.filter((s): s is string => typeof s === 'string') : [];
  return { maxTokens: typeof maxTokens === 'number' ? maxTokens : null, stop };
}

function thinkingOf(extra: unknown, maxTokens: number | null, choice: ToolChoice): number | null | JsonReply {
  const thinking = isRecord(extra) && isRecord(extra.thinking) ? extra.thinking : null;
  if (thinking?.type !== 'enabled') return null;
  const budget = thinking.budget_tokens;
  const refuse = (why: string): JsonReply => validation(`The model returned the following errors: ${why}`);
  if (typeof budget !== 'number' || budget < 1024) return refuse('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (maxTokens !== null && maxTokens <= budget) return refuse('`max_tokens` must be greater than `thinking.budget_tokens`.');
  if (choice.kind !== 'auto') return refuse('Thinking may not be enabled when tool_choice forces tool use.');
  return budget;
}

export function parseConverseRequest(modelId: string, json: unknown): ParseResult {
  if (!isRecord(json)) return fail(validation('Malformed input request, please reformat your input and try again.'));
  const messages = messagesOf(json.messages);
  if (!Array.isArray(messages)) return fail(messages);
  const { names, tools, choice } = toolsOf(json.toolConfig);
  const usesTools = messages.some((m) => m.content.some((b) => 'toolUse' in b || 'toolResult' in b));
  if (usesTools && tools.length === 0) return fail(validation('The toolConfig field must be defined when using toolUse and toolResult content blocks.'));
  const inference = inferenceOf(json.inferenceConfig);
  if ('status' in inference) return fail(inference);
  const thinking = thinkingOf(json.additionalModelRequestFields, inference.maxTokens, choice);
  if (thinking !== null && typeof thinking !== 'number') return fail(thinking);
  const system = Array.isArray(json.system) ? json.system.filter(isRecord) : [];
  const paths = Array.isArray(json.additionalModelResponseFieldPaths) ? json.additionalModelResponseFieldPaths : [];
  return {
    ok: true,
    request: {
      modelId,
      messages,
      system,
      toolNames: names,
      tools,
      toolChoice: choice,
      maxTokens: inference.maxTokens,
      stop: inference.stop,
      thinkingBudget: thinking,
      wantsStopSequence: paths.includes('/stop_sequence'),
    },
  };
}
