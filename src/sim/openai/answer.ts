/**
 * What the simulated model answers, decided from the request alone (no randomness), and the usage it
 * reports. The stream and non-stream renderers both draw from the same `AnswerPlan`, so a streamed answer
 * concatenates to exactly the non-stream text.
 */
import type { RequestControls } from '../faults.js';
import { isRecord } from '../http.js';
import { applyStop, countTokens, fillerText, naturalText, singleSpaced, stableId, words } from '../text.js';
import { sampleJsonText } from '../json-sample.js';
import type { ChatMessage, ChatRequest } from './request.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface ToolCallPlan {
  id: string;
  name: string;
  /** JSON text, streamed in pieces. */
  arguments: string;
}

export interface AnswerPlan {
  /** The visible answer words (tokens); empty for a tool call. */
  words: string[];
  /** The first tool call (renderers of one call per answer). */
  toolCall: ToolCallPlan | null;
  /** Every tool call of the answer (several when parallel tool calls are allowed and asked for). */
  toolCalls: ToolCallPlan[];
  finishReason: FinishReason;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
}

export const TOOL_ARGUMENTS = '{"location":"Paris"}';

/** The text of a message's content: a string, or the `text` of its content parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

/** Non-text content parts (images, audio, files) are billed a flat 85 tokens each, like a low-detail image. */
const NON_TEXT_PART_TOKENS = 85;

function nonTextParts(content: unknown): number {
  return Array.isArray(content) ? content.filter((p) => isRecord(p) && p.type !== 'text').length : 0;
}

/**
 * Prompt tokens as in OpenAI's cookbook approximation ("How to count tokens with tiktoken"): 3 per message
 * plus the tokens of its role, content and name (+1 for a name), plus 3 priming the reply. Tool calls in
 * history count their name and arguments; tool definitions count as their JSON text.
 */
export function countChatPromptTokens(messages: readonly ChatMessage[], tools: readonly unknown[] = []): number {
  let total = 3;
  for (const message of messages) {
    total += 3 + countTokens(message.role) + countTokens(contentText(message.content));
    total += NON_TEXT_PART_TOKENS * nonTextParts(message.content);
    if (typeof message.name === 'string') total += 1 + countTokens(message.name);
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (isRecord(call) && isRecord(call.function)) {
          total += countTokens(`${String(call.function.name)}${String(call.function.arguments)}`);
        }
      }
    }
  }
  if (tools.length > 0) total += countTokens(JSON.stringify(tools));
  return total;
}

/**
 * The tools the simulated model calls: a named tool_choice calls that tool; `required`, or a last user turn
 * that mentions the weather or a tool by name, calls the tools the turn names (all of them when parallel
 * tool calls are allowed, else the first), or the first tool.
 */
function wantsToolCalls(request: ChatRequest, last: ChatMessage | undefined): string[] {
  const { toolChoice, toolNames } = request;
  if (toolNames.length === 0 || toolChoice === 'none' || last?.role !== 'user') return [];
  if (typeof toolChoice === 'object') return [toolChoice.name];
  const text = contentText(last.content);
  const named = toolNames.filter((name) => text.includes(name));
  if (toolChoice !== 'required' && named.length === 0 && !/weather/i.test(text)) return [];
  if (named.length === 0) return [toolNames[0]!];
  return request.parallelToolCalls === false ? named.slice(0, 1) : named;
}

function visibleText(request: ChatRequest, last: ChatMessage | undefined, controls: RequestControls): string {
  if (controls.outputTokens !== null) return fillerText(controls.outputTokens);
  // JSON mode / structured output: a value valid against the schema, single-spaced like every answer.
  if (request.jsonSchema != null) return sampleJsonText(request.jsonSchema, `${request.model}\n${JSON.stringify(request.messages)}`);
  if (last?.role === 'tool') {
    const result = words(contentText(last.content)).slice(0, 40).join(' ');
    return singleSpaced(`Echo: the tool returned ${result.length > 0 ? result : 'nothing'}.`);
  }
  return naturalText(`${request.model}\n${JSON.stringify(request.messages)}`);
}

export function planAnswer(request: ChatRequest, controls: RequestControls, choice = 0): AnswerPlan {
  const last = request.messages.at(-1);
  const promptTokens = countChatPromptTokens(request.messages, request.tools);
  const base = {
    promptTokens,
    cachedTokens: Math.min(controls.cachedTokens, promptTokens),
    reasoningTokens: controls.reasoningTokens,
  };
  const seed = `${request.model}\n${JSON.stringify(request.messages)}${choice > 0 ? `\n${choice}` : ''}`;
  const names = wantsToolCalls(request, last);
  if (names.length > 0) {
    const toolCalls = names.map((name, i): ToolCallPlan => {
      const schema = request.toolSchemas?.[name];
      // Arguments valid against the tool's parameter schema (the fixed sample only for a schema-less tool).
      const args = schema === undefined ? TOOL_ARGUMENTS : sampleJsonText(schema, `${seed}\n${i}`);
      return { id: `call_${stableId(`${seed}${i > 0 ? `\n${i}` : ''}`)}`, name, arguments: args };
    });
    const completion = toolCalls.reduce((sum, c) => sum + countTokens(c.name) + countTokens(c.arguments), 0);
    return {
      ...base,
      words: [],
      toolCall: toolCalls[0]!,
      toolCalls,
      finishReason: 'tool_calls',
      completionTokens: completion + controls.reasoningTokens,
    };
  }
  const stopped = applyStop(choice > 0 && request.jsonSchema == null && controls.outputTokens === null ? naturalText(seed) : visibleText(request, last, controls), request.stop);
  let answer = words(stopped.text);
  let finishReason: FinishReason = 'stop';
  // Reasoning tokens spend the max_tokens budget first, as on the real reasoning models.
  const budget = request.maxTokens === null ? null : Math.max(0, request.maxTokens - controls.reasoningTokens);
  if (budget !== null && answer.length > budget) {
    answer = answer.slice(0, budget);
    finishReason = 'length';
  }
  return {
    ...base,
    words: answer,
    toolCall: null,
    toolCalls: [],
    finishReason,
    completionTokens: answer.length + controls.reasoningTokens,
  };
}

/** The `usage` object of a completion or of the final stream chunk. */
export function usageOf(plan: AnswerPlan): Record<string, unknown> {
  return {
    prompt_tokens: plan.promptTokens,
    completion_tokens: plan.completionTokens,
    total_tokens: plan.promptTokens + plan.completionTokens,
    prompt_tokens_details: { cached_tokens: plan.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: plan.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
