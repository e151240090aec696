/**
 * Chat completions wire JSON -> canonical request. The field table is checked first by `validateChat` (the
 * same check the byte fast path runs); this adds the per-part checks the canonical model needs.
 */
import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  JsonObject,
  ReasoningConfig,
  RequestExtensions,
  ResponseFormat,
  SystemBlock,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import {
  type Body,
  given,
  imageSourceFromUrl,
  isObj,
  jsonObject,
  optBool,
  optDetail,
  optInt,
  optNumber,
  optString,
  refuse,
  reqObject,
  reqString,
  stopList,
} from '../fields.js';
import { validateChat } from './validate.js';

/** JSON Schema of a tool that declares no parameters (a fresh object: decoded requests may be mutated). */
export const emptyParameters = (): JsonObject => ({ type: 'object', properties: {} });

export function decodeChat(body: Body): CanonicalRequest {
  const summary = validateChat(body);
  refuse(body, 'functions', 'the deprecated functions field is not translated; use tools.');
  refuse(body, 'function_call', 'the deprecated function_call field is not translated; use tool_choice.');
  refuse(body, 'audio', 'audio output is not available on this route.');
  const system: SystemBlock[] = [];
  const messages: CanonicalMessage[] = [];
  (body.messages as unknown[]).forEach((m, i) => decodeMessage(m as Body, `messages[${i}]`, system, messages));
  const req: CanonicalRequest = {
    model: summary.model,
    system,
    messages,
    tools: decodeTools(body.tools),
    toolChoice: decodeToolChoice(body.tool_choice),
    maxTokens: summary.maxTokens,
    stop: stopList(body.stop, 'stop', 4),
    n: summary.n,
    responseFormat: decodeResponseFormat(body.response_format),
    reasoning: decodeEffort(body.reasoning_effort, 'reasoning_effort'),
    stream: summary.stream,
    user: summary.user,
    extensions: decodeOpenAIExtensions(body),
  };
  const parallel = optBool(body.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  assignSampling(req, body);
  return req;
}

/** Sampling fields shared with the other OpenAI formats (ranges already checked by validateChat). */
export function assignSampling(req: CanonicalRequest, b: Body): void {
  const t = optNumber(b.temperature, 'temperature', 0, 2);
  if (t !== undefined) req.temperature = t;
  const p = optNumber(b.top_p, 'top_p', 0, 1);
  if (p !== undefined) req.topP = p;
  const pp = optNumber(b.presence_penalty, 'presence_penalty', -2, 2);
  if (pp !== undefined) req.presencePenalty = pp;
  const fp = optNumber(b.frequency_penalty, 'frequency_penalty', -2, 2);
  if (fp !== undefined) req.frequencyPenalty = fp;
  const seed = optInt(b.seed, 'seed', Number.MIN_SAFE_INTEGER);
  if (seed !== undefined) req.seed = seed;
}

function decodeMessage(m: Body, p: string, system: SystemBlock[], out: CanonicalMessage[]): void {
  switch (m.role) {
    case 'system':
    case 'developer':
      for (const text of textsOnly(m.content, `${p}.content`)) system.push({ role: m.role, text });
      return;
    case 'user':
      return void out.push(named({ role: 'user', content: userContent(m.content, `${p}.content`) }, m));
    case 'assistant':
      return void out.push(named({ role: 'assistant', content: assistantContent(m, p) }, m));
    case 'tool': {
      const result: ContentPart = {
        type: 'tool_result',
        toolCallId: reqString(m.tool_call_id, `${p}.tool_call_id`),
        content: textsOnly(m.content, `${p}.content`).map((text): TextPart => ({ type: 'text', text })),
      };
      // Consecutive tool messages answer one assistant turn: they become one canonical tool message.
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.content.push(result);
      else out.push({ role: 'tool', content: [result] });
      return;
    }
    default:
      throw invalid(`${p}.role "function" is deprecated and not translated; use role "tool".`, `${p}.role`);
  }
}

function named(msg: CanonicalMessage, m: Body): CanonicalMessage {
  if (typeof m.name === 'string') msg.name = m.name;
  return msg;
}

/** Content that may only hold text (system, developer, tool): a string or text parts. */
function textsOnly(content: unknown, path: string): string[] {
  if (typeof content === 'string') return [content];
  return (content as unknown[]).map((part, i) => {
    const q = reqObject(part, `${path}[${i}]`);
    if (q.type !== 'text') throw invalid(`${path}[${i}].type must be "text" here.`, `${path}[${i}].type`);
    return reqString(q.text, `${path}[${i}].text`, true);
  });
}

function userContent(content: unknown, path: string): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content as unknown[]).map((part, i): ContentPart => {
    const q = reqObject(part, `${path}[${i}]`);
    if (q.type === 'text') return { type: 'text', text: reqString(q.text, `${path}[${i}].text`, true) };
    if (q.type === 'image_url') return imagePart(q.image_url, `${path}[${i}].image_url`);
    throw invalid(`${path}[${i}].type "${String(q.type)}" is not supported; use text or image_url.`, `${path}[${i}].type`);
  });
}

function imagePart(v: unknown, path: string): ImagePart {
  const img = reqObject(v, path);
  const part: ImagePart = { type: 'image', source: imageSourceFromUrl(img.url, `${path}.url`) };
  const detail = optDetail(img.detail, `${path}.detail`);
  if (detail !== undefined) part.detail = detail;
  return part;
}

function assistantContent(m: Body, p: string): ContentPart[] {
  const parts: ContentPart[] = [];
  if (typeof m.content === 'string') {
    // An empty string beside tool calls is how many clients spell "no text"; it is not a text block.
    if (m.content !== '') parts.push({ type: 'text', text: m.content });
  } else if (Array.isArray(m.content)) {
    m.content.forEach((part, i) => {
      const q = reqObject(part, `${p}.content[${i}]`);
      if (q.type === 'text') parts.push({ type: 'text', text: reqString(q.text, `${p}.content[${i}].text`, true) });
      else if (q.type === 'refusal') parts.push({ type: 'text', text: reqString(q.refusal, `${p}.content[${i}].refusal`, true) });
      else throw invalid(`${p}.content[${i}].type must be text or refusal.`, `${p}.content[${i}].type`);
    });
  }
  if (given(m.function_call)) throw invalid(`${p}.function_call is deprecated and not translated; use tool_calls.`, `${p}.function_call`);
  if (Array.isArray(m.tool_calls)) {
    m.tool_calls.forEach((tc, j) => {
      const q = `${p}.tool_calls[${j}]`;
      const call = reqObject(tc, q);
      if (given(call.type) && call.type !== 'function') throw invalid(`${q}.type must be "function".`, `${q}.type`);
      const fn = reqObject(call.function, `${q}.function`);
      parts.push({
        type: 'tool_call',
        id: reqString(call.id, `${q}.id`),
        name: reqString(fn.name, `${q}.function.name`),
        arguments: reqString(fn.arguments, `${q}.function.arguments`, true),
      });
    });
  }
  return parts;
}

function decodeTools(v: unknown): ToolDefinition[] {
  if (!given(v)) return [];
  return (v as Body[]).map((t, i) => {
    const fn = t.function as Body;
    const p = `tools[${i}].function`;
    const tool: ToolDefinition = {
      name: reqString(fn.name, `${p}.name`),
      parameters: given(fn.parameters) ? jsonObject(fn.parameters, `${p}.parameters`) : emptyParameters(),
    };
    const description = optString(fn.description, `${p}.description`);
    if (description !== undefined) tool.description = description;
    const strict = optBool(fn.strict, `${p}.strict`);
    if (strict !== undefined) tool.strict = strict;
    return tool;
  });
}

/** `auto` / `none` / `required` or `{type: 'function', function: {name}}` (chat) / `{type: 'function', name}` (responses). */
export function decodeToolChoice(v: unknown, path = 'tool_choice'): ToolChoice | null {
  if (!given(v)) return null;
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v };
  if (v === 'any') return { type: 'required' }; // Mistral's word for forcing a tool
  if (isObj(v) && v.type === 'function') {
    const name = isObj(v.function) ? v.function.name : v.name;
    return { type: 'tool', name: reqString(name, isObj(v.function) ? `${path}.function.name` : `${path}.name`) };
  }
  throw invalid(`${path} must be auto, none, required or a specific function ({type: "function", ...}).`, path);
}

function decodeResponseFormat(v: unknown): ResponseFormat | null {
  if (!given(v)) return null;
  const f = reqObject(v, 'response_format');
  if (f.type === 'text' || f.type === 'json_object') return { type: f.type };
  if (f.type !== 'json_schema') throw invalid('response_format.type must be text, json_object or json_schema.', 'response_format.type');
  const s = reqObject(f.json_schema, 'response_format.json_schema');
  return jsonSchemaFormat(s, 'response_format.json_schema');
}

/** `{name, schema, strict}` of a json_schema response format (chat nests it, responses does not). */
export function jsonSchemaFormat(s: Body, path: string): ResponseFormat {
  const out: ResponseFormat = {
    type: 'json_schema',
    name: reqString(s.name, `${path}.name`),
    schema: given(s.schema) ? jsonObject(s.schema, `${path}.schema`) : {},
  };
  const strict = optBool(s.strict, `${path}.strict`);
  if (strict !== undefined) out.strict = strict;
  return out;
}

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

/** OpenAI reasoning effort; `none` turns reasoning off (no canonical config). */
export function decodeEffort(v: unknown, path: string): ReasoningConfig | null {
  if (!given(v) || v === 'none') return null;
  if (typeof v !== 'string' || !EFFORTS.has(v)) throw invalid(`${path} must be one of none, minimal, low, medium, high.`, path);
  return { effort: v as 'minimal' | 'low' | 'medium' | 'high' };
}

/** OpenAI-only request data (logprobs, logit_bias, store) carried for upstreams that can serve it. */
export function decodeOpenAIExtensions(b: Body): RequestExtensions {
  const openai: NonNullable<RequestExtensions['openai']> = {};
  const logprobs = optBool(b.logprobs, 'logprobs');
  if (logprobs !== undefined) openai.logprobs = logprobs;
  const top = optInt(b.top_logprobs, 'top_logprobs', 0, 20);
  if (top !== undefined) openai.topLogprobs = top;
  if (given(b.logit_bias)) openai.logitBias = logitBias(b.logit_bias);
  const store = optBool(b.store, 'store');
  if (store !== undefined) openai.store = store;
  return Object.keys(openai).length > 0 ? { openai } : {};
}

function logitBias(v: unknown): Record<string, number> {
  const o = reqObject(v, 'logit_bias');
  for (const [k, x] of Object.entries(o)) {
    if (typeof x !== 'number' || x < -100 || x > 100) throw invalid(`logit_bias["${k}"] must be a number between -100 and 100.`, 'logit_bias');
  }
  return o as Record<string, number>;
}
