import { invalid } from '../../errors/gateway-error.js';
import type { JsonRecord } from '../../pipeline/json-body.js';

/** What the pipeline needs to know of a chat-completions request (the body itself is forwarded). */
export interface ChatSummary {
  model: string;
  stream: boolean;
  /** Requested output cap (max_tokens or max_completion_tokens); null = model default. */
  maxTokens: number | null;
  n: number;
  user: string | null;
  /** Every piece of prompt text, in order, for inspection and token estimates. */
  texts: string[];
  /**
   * Parallel to texts: true for content the key holder did not write (user turns, tool/function results),
   * the only text scored for prompt injection. System/developer text and assistant turns are trusted.
   */
  untrusted: boolean[];
  /** Count of messages (per-message token overhead). */
  messageCount: number;
  /** Tool schemas as JSON (they are part of the prompt: inspected and counted); '' without tools. */
  toolsJson: string;
  /** The client asked for usage in the stream itself. */
  clientWantsStreamUsage: boolean;
  /** The body was normalised in place (tool_choice "any" -> "required"): forward it re-serialised. */
  rewritten: boolean;
  /** The client asked for token log probabilities (`logprobs: true`). */
  logprobs: boolean;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const USER_MAX = 200;

const isObj = (v: unknown): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

function numberIn(b: JsonRecord, k: string, min: number, max: number): void {
  const v = b[k];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw invalid(`${k} must be a number between ${min} and ${max}.`, k);
  }
}

function intAtLeast(b: JsonRecord, k: string, min: number): number | null {
  const v = b[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw invalid(`${k} must be an integer >= ${min}.`, k);
  return v;
}

function contentTexts(content: unknown, path: string, out: string[]): void {
  if (typeof content === 'string') {
    out.push(content);
    return;
  }
  if (!Array.isArray(content)) throw invalid(`${path} must be a string or an array of content parts.`, path);
  content.forEach((part, i) => {
    if (!isObj(part) || typeof part.type !== 'string') throw invalid(`${path}[${i}] must be an object with a type.`, path);
    if (part.type === 'text') {
      if (typeof part.text !== 'string') throw invalid(`${path}[${i}].text must be a string.`, path);
      out.push(part.text);
    }
  });
}

/** Validates a chat-completions body against the contract's field table. */
export function validateChat(b: JsonRecord): ChatSummary {
  if (typeof b.model !== 'string' || b.model === '') throw invalid('model is required and must be a string.', 'model');
  if (!Array.isArray(b.messages)) throw invalid('messages is required and must be an array.', 'messages');
  if (b.messages.length === 0) throw invalid('messages must contain at least one message.', 'messages');
  const texts: string[] = [];
  const untrusted: boolean[] = [];
  b.messages.forEach((m, i) => {
    const p = `messages[${i}]`;
    if (!isObj(m)) throw invalid(`${p} must be an object.`, p);
    if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
      throw invalid(`${p}.role must be one of system, developer, user, assistant, tool.`, `${p}.role`);
    }
    const hasToolCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (m.content === undefined || (m.content === null && !(m.role === 'assistant' && hasToolCalls))) {
      throw invalid(`${p}.content is required.`, `${p}.content`);
    }
    if (m.content !== null) contentTexts(m.content, `${p}.content`, texts);
    const fromOutside = m.role === 'user' || m.role === 'tool' || m.role === 'function';
    while (untrusted.length < texts.length) untrusted.push(fromOutside);
    if (m.name !== undefined && typeof m.name !== 'string') throw invalid(`${p}.name must be a string.`, `${p}.name`);
    if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls)) {
      throw invalid(`${p}.tool_calls must be an array.`, `${p}.tool_calls`);
    }
    if (hasToolCalls) {
      for (const tc of m.tool_calls as unknown[]) {
        if (!isObj(tc)) throw invalid(`${p}.tool_calls entries must be objects.`, `${p}.tool_calls`);
        const fn = tc.function;
        if (isObj(fn) && typeof fn.arguments === 'string') {
          texts.push(fn.arguments);
          untrusted.push(false);
        }
      }
    }
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') {
      throw invalid(`${p}.tool_call_id is required for role tool.`, `${p}.tool_call_id`);
    }
  });
  numberIn(b, 'temperature', 0, 2);
  numberIn(b, 'top_p', 0, 1);
  numberIn(b, 'presence_penalty', -2, 2);
  numberIn(b, 'frequency_penalty', -2, 2);
  const maxTokens = intAtLeast(b, 'max_tokens', 1);
  const maxCompletion = intAtLeast(b, 'max_completion_tokens', 1);
  const n = intAtLeast(b, 'n', 1) ?? 1;
  if (n > 128) throw invalid('n must be at most 128.', 'n');
  if (b.seed !== undefined && b.seed !== null && !Number.isInteger(b.seed)) throw invalid('seed must be an integer.', 'seed');
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== 'boolean') {
    throw invalid('stream must be a boolean.', 'stream');
  }
  const stop = b.stop;
  if (stop !== undefined && stop !== null) {
    const ok = typeof stop === 'string' || (Array.isArray(stop) && stop.length <= 4 && stop.every((s) => typeof s === 'string'));
    if (!ok) throw invalid('stop must be a string or an array of up to 4 strings.', 'stop');
  }
  if (b.response_format !== undefined && b.response_format !== null) {
    if (!isObj(b.response_format) || typeof b.response_format.type !== 'string') {
      throw invalid('response_format must be an object with a type.', 'response_format');
    }
  }
  let toolsJson = '';
  if (b.tools !== undefined && b.tools !== null) {
    if (!Array.isArray(b.tools)) throw invalid('tools must be an array.', 'tools');
    b.tools.forEach((t, i) => {
      if (!isObj(t) || t.type !== 'function' || !isObj(t.function) || typeof t.function.name !== 'string') {
        throw invalid(`tools[${i}] must be {type: "function", function: {name, ...}}.`, 'tools');
      }
    });
    toolsJson = JSON.stringify(b.tools);
  }
  const tc = b.tool_choice;
  let rewritten = false;
  if (tc === 'any') {
    // Mistral's spelling of "required" (its SDK and LangChain's ChatMistralAI send it): same meaning.
    b.tool_choice = 'required';
    rewritten = true;
  } else if (tc !== undefined && tc !== null) {
    const ok = (typeof tc === 'string' && ['auto', 'none', 'required'].includes(tc)) || isObj(tc);
    if (!ok) throw invalid('tool_choice must be auto, none, required (or any) or a tool object.', 'tool_choice');
  }
  if (b.logprobs !== undefined && b.logprobs !== null && typeof b.logprobs !== 'boolean') throw invalid('logprobs must be a boolean.', 'logprobs');
  let user: string | null = null;
  if (b.user !== undefined && b.user !== null) {
    if (typeof b.user !== 'string') throw invalid('user must be a string.', 'user');
    if (b.user.length > USER_MAX) throw invalid(`user must be at most ${USER_MAX} characters.`, 'user');
    user = b.user;
  }
  const so = b.stream_options;
  if (so !== undefined && so !== null && !isObj(so)) throw invalid('stream_options must be an object.', 'stream_options');
  return {
    model: b.model,
    stream: b.stream === true,
    maxTokens: maxCompletion ?? maxTokens,
    n,
    user,
    texts,
    untrusted,
    messageCount: b.messages.length,
    toolsJson,
    clientWantsStreamUsage: isObj(so) && so.include_usage === true,
    rewritten,
    logprobs: b.logprobs === true,
  };
}
