/**
 * Decodes a Mistral chat request the way the API validates it (pydantic, extra fields forbidden): an
 * OpenAI-only field such as `max_completion_tokens`, `stream_options`, `seed` or `user` is a 422
 * `extra_forbidden`, a foreign tool-call id a 400, a missing model a 422 `missing`. The request is then
 * restated as the simulator's chat request, so the answer is the shared deterministic plan.
 */
import type { JsonReply } from '../http.js';
import { jsonSchemaOf } from '../openai/request.js';
import { isRecord } from '../http.js';
import type { ChatMessage, ChatRequest, ToolChoice } from '../openai/request.js';
import { mistralError, validationError } from './errors.js';

/** Top-level fields of `ChatCompletionRequest` (@mistralai/mistralai 2.x outbound schema). */
const KNOWN = new Set([
  'model', 'temperature', 'top_p', 'max_tokens', 'stream', 'stop', 'random_seed', 'metadata', 'messages',
  'response_format', 'tools', 'tool_choice', 'presence_penalty', 'frequency_penalty', 'n', 'prediction',
  'parallel_tool_calls', 'reasoning_effort', 'prompt_mode', 'guardrails', 'prompt_cache_key', 'service_tier',
  'safe_prompt',
]);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

export type MistralParse = { ok: true; request: ChatRequest } | { ok: false; error: JsonReply };

const fail = (error: JsonReply): MistralParse => ({ ok: false, error });

function badToolCallId(id: unknown): MistralParse {
  return fail(
    mistralError(400, `Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`, 'invalid_request_message_error', '3280'),
  );
}

function toolChoiceOf(value: unknown): ToolChoice {
  if (value === 'none' || value === 'auto') return value;
  if (value === 'any' || value === 'required') return 'required';
  if (isRecord(value) && isRecord(value.function) && typeof value.function.name === 'string') return { name: value.function.name };
  return 'auto';
}

/** Fields of each message model (SystemMessage, UserMessage, AssistantMessage, ToolMessage); others are extra. */
const MESSAGE_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['role', 'content']),
  user: new Set(['role', 'content']),
  assistant: new Set(['role', 'content', 'tool_calls', 'prefix']),
  tool: new Set(['role', 'content', 'tool_call_id', 'name']),
};

function checkMessages(messages: unknown[]): MistralParse | null {
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) {
      return fail(
        validationError([{ type: 'union_tag_invalid', loc: ['body', 'messages', i], msg: "Input tag does not match any of the expected tags: 'assistant', 'system', 'tool', 'user'", input: m }]),
      );
    }
    const extra = Object.keys(m).find((k) => !MESSAGE_FIELDS[String(m.role)]?.has(k));
    if (extra !== undefined) {
      return fail(validationError([{ type: 'extra_forbidden', loc: ['body', 'messages', i, m.role, extra], msg: 'Extra inputs are not permitted', input: m[extra] }]));
    }
    if (m.role === 'tool' && m.tool_call_id !== undefined && !TOOL_CALL_ID.test(String(m.tool_call_id))) return badToolCallId(m.tool_call_id);
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls) {
        if (isRecord(call) && call.id !== undefined && !TOOL_CALL_ID.test(String(call.id))) return badToolCallId(call.id);
      }
      if ((m.content === null || m.content === undefined || m.content === '') && m.tool_calls.length === 0) {
        return fail(mistralError(400, 'Assistant message must have either content or tool_calls, but not none.', 'invalid_request_error'));
      }
    }
  }
  return null;
}

export function parseMistralRequest(json: unknown): MistralParse {
  if (!isRecord(json)) {
    return fail(validationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: json ?? null }]));
  }
  const extra = Object.keys(json).filter((k) => !KNOWN.has(k));
  if (extra.length > 0) {
    return fail(validationError(extra.map((k) => ({ type: 'extra_forbidden', loc: ['body', k], msg: 'Extra inputs are not permitted', input: json[k] }))));
  }
  if (typeof json.model !== 'string') return fail(validationError([{ type: 'missing', loc: ['body', 'model'], msg: 'Field required', input: json }]));
  if (!Array.isArray(json.messages) || json.messages.length === 0) {
    return fail(mistralError(400, 'Invalid messages: the list of messages must not be empty', 'invalid_request_message_error'));
  }
  if (typeof json.top_p === 'number' && (json.top_p < 0 || json.top_p > 1)) {
    const [type, msg] = json.top_p < 0 ? ['greater_than_equal', 'greater than or equal to 0'] : ['less_than_equal', 'less than or equal to 1'];
    return fail(validationError([{ type, loc: ['body', 'top_p'], msg: `Input should be ${msg}`, input: json.top_p }]));
  }
  const bad = checkMessages(json.messages);
  if (bad) return bad;
  const max = json.max_tokens;
  const tools = Array.isArray(json.tools) ? (json.tools as unknown[]) : [];
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop.filter((s): s is string => typeof s === 'string') : [];
  return {
    ok: true,
    request: {
      model: json.model,
      messages: json.messages as ChatMessage[],
      stream: json.stream === true,
      includeUsage: true,
      maxTokens: typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null,
      stop,
      toolNames: tools.flatMap((t) => (isRecord(t) && isRecord(t.function) && typeof t.function.name === 'string' ? [t.function.name] : [])),
      tools,
      toolChoice: toolChoiceOf(json.tool_choice),
      jsonSchema: jsonSchemaOf(json.response_format),
      toolSchemas: Object.fromEntries(
        tools.flatMap((t) => (isRecord(t) && isRecord(t.function) && typeof t.function.name === 'string' ? [[t.function.name, t.function.parameters ?? {}]] : [])),
      ),
      parallelToolCalls: json.parallel_tool_calls !== false,
      n: typeof json.n === 'number' && Number.isInteger(json.n) && json.n > 1 ? json.n : 1,
    },
  };
}
