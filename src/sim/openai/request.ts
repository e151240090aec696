/**
 * Decodes and validates a chat-completions request body the way the real API does where it matters to a
 * gateway: unknown top-level keys are rejected (so an unstripped `svc_*` control field fails loudly, as it
 * would at OpenAI), and missing model/messages give OpenAI's own 400 bodies.
 */
import type { JsonReply } from '../http.js';
import { isRecord } from '../http.js';
import { openaiError } from './errors.js';

/** Top-level keys of the create-chat-completion body (openai-node `ChatCompletionCreateParamsBase`). */
const KNOWN_PARAMS = new Set([
  'messages', 'model', 'audio', 'frequency_penalty', 'function_call', 'functions', 'logit_bias', 'logprobs',
  'max_completion_tokens', 'max_tokens', 'metadata', 'modalities', 'moderation', 'n', 'parallel_tool_calls',
  'prediction', 'presence_penalty', 'prompt_cache_key', 'prompt_cache_options', 'prompt_cache_retention',
  'reasoning_effort', 'response_format', 'safety_identifier', 'seed', 'service_tier', 'stop', 'store',
  'stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p', 'user',
  'verbosity', 'web_search_options',
]);

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];

/** A message as counted and answered; other keys are kept but not typed. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  name?: unknown;
  tool_calls?: unknown;
}
export type ToolChoice = 'none' | 'auto' | 'required' | { name: string };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  /** max_completion_tokens, else max_tokens; null = no limit. */
  maxTokens: number | null;
  stop: string[];
  /** Function names of `tools`, in order. */
  toolNames: string[];
  /** The raw `tools` array (counted in prompt tokens). */
  tools: unknown[];
  toolChoice: ToolChoice;
  /** JSON mode: the schema the answer must follow (`{}` for json_object); null/absent = plain text. */
  jsonSchema?: Record<string, unknown> | null;
  /** Parameter schema of each tool by name (tool-call arguments are sampled from it). */
  toolSchemas?: Record<string, unknown>;
  /** `parallel_tool_calls` (default true): several tools may be called in one answer. */
  parallelToolCalls?: boolean;
  /** Choices to generate (`n`, default 1). */
  n?: number;
  /** `logprobs: true`, with `top_logprobs` alternatives per token. */
  logprobs?: boolean;
  topLogprobs?: number;
}

export type ParseResult = { ok: true; request: ChatRequest } | { ok: false; error: JsonReply };

const invalid = (message: string, param: string | null = null, code: string | null = null): ParseResult => ({
  ok: false,
  error: openaiError(400, message, 'invalid_request_error', param, code),
});

const BAD_JSON =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)";

function toolChoiceOf(value: unknown): ToolChoice {
  if (value === 'none' || value === 'required' || value === 'auto') return value;
  if (isRecord(value) && isRecord(value.function) && typeof value.function.name === 'string') {
    return { name: value.function.name };
  }
  return 'auto';
}

/** `response_format`: json_object -> `{}`, json_schema -> its schema; text or absent -> null. */
export function jsonSchemaOf(format: unknown): Record<string, unknown> | null {
  if (!isRecord(format)) return null;
  if (format.type === 'json_object') return {};
  if (format.type === 'json_schema' && isRecord(format.json_schema)) return isRecord(format.json_schema.schema) ? format.json_schema.schema : {};
  return null;
}

function toolSchemasOf(tools: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const tool of tools) {
    if (isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string') out[tool.function.name] = tool.function.parameters ?? {};
  }
  return out;
}

function toolNamesOf(tools: unknown[]): string[] {
  return tools.flatMap((tool) =>
    isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : [],
  );
}

function maxTokensOf(body: Record<string, unknown>): number | null | ParseResult {
  for (const key of ['max_completion_tokens', 'max_tokens']) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return invalid(`Invalid type for '${key}': expected an integer, but got ${typeof value} instead.`, key, 'invalid_type');
    }
    if (value < 1) {
      return invalid(
        `Invalid '${key}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
        key,
        'integer_below_min_value',
      );
    }
    return value;
  }
  return null;
}

function stopOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}

function messagesOf(value: unknown): ChatMessage[] | ParseResult {
  if (value === undefined) return invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(value)) {
    return invalid("Invalid type for 'messages': expected an array of objects.", 'messages', 'invalid_type');
  }
  if (value.length === 0) {
    return invalid(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  const messages: ChatMessage[] = [];
  for (const [i, message] of value.entries()) {
    if (!isRecord(message) || typeof message.role !== 'string') {
      return invalid(`Missing required parameter: 'messages[${i}].role'.`, `messages[${i}].role`, 'missing_required_parameter');
    }
    if (!ROLES.includes(message.role)) {
      return invalid(
        `Invalid value: '${message.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    messages.push({ ...message, role: message.role });
  }
  return messages;
}

export function parseChatRequest(json: unknown, body: Buffer): ParseResult {
  const parsed = body.length === 0 ? {} : json;
  if (!isRecord(parsed)) return invalid(BAD_JSON);
  const unknown = Object.keys(parsed).find((key) => !KNOWN_PARAMS.has(key));
  if (unknown !== undefined) return invalid(`Unrecognized request argument supplied: ${unknown}`);
  if (typeof parsed.model !== 'string' || parsed.model.length === 0) return invalid('you must provide a model parameter');
  const messages = messagesOf(parsed.messages);
  if (!Array.isArray(messages)) return messages;
  const stream = parsed.stream === true;
  if (!stream && parsed.stream_options !== undefined && parsed.stream_options !== null) {
    return invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  }
  const maxTokens = maxTokensOf(parsed);
  if (maxTokens !== null && typeof maxTokens !== 'number') return maxTokens;
  const tools = Array.isArray(parsed.tools) ? (parsed.tools as unknown[]) : [];
  return {
    ok: true,
    request: {
      model: parsed.model,
      messages,
      stream,
      includeUsage: stream && isRecord(parsed.stream_options) && parsed.stream_options.include_usage === true,
      maxTokens,
      stop: stopOf(parsed.stop),
      toolNames: toolNamesOf(tools),
      tools,
      toolChoice: toolChoiceOf(parsed.tool_choice),
      jsonSchema: jsonSchemaOf(parsed.response_format),
      toolSchemas: toolSchemasOf(tools),
      parallelToolCalls: parsed.parallel_tool_calls !== false,
      n: typeof parsed.n === 'number' && Number.isInteger(parsed.n) && parsed.n > 1 ? parsed.n : 1,
      logprobs: parsed.logprobs === true,
      topLogprobs: typeof parsed.top_logprobs === 'number' ? parsed.top_logprobs : 0,
    },
  };
}
