/**
 * Responses (POST /v1/responses) wire JSON -> canonical request. Input items: `message` (also the short form
 * `{role, content}` without a type), `function_call` and `function_call_output`; `reasoning` items are
 * dropped (their encrypted content is only meaningful to the OpenAI upstream that produced it). Only function
 * tools translate: hosted tools (web search, file search, code interpreter, ...) run on OpenAI's side.
 * `previous_response_id` and `item_reference` items are resolved before this decoder runs
 * (src/responses-store); conversations and stored prompts are refused.
 */
import type { CanonicalMessage, CanonicalRequest, ContentPart, ImagePart, ResponseFormat, SystemBlock, TextPart, ToolDefinition } from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { assignSampling, decodeEffort, decodeOpenAIExtensions, decodeToolChoice, emptyParameters, jsonSchemaFormat } from '../chat-completions/decode.js';
import {
  type Body,
  given,
  imageSourceFromUrl,
  jsonObject,
  optBool,
  optDetail,
  optInt,
  optString,
  refuse,
  reqArray,
  reqObject,
  reqString,
} from '../fields.js';

const STATELESS = 'the gateway keeps no conversations or prompts; send the items in input or use previous_response_id.';

export function decodeResponses(b: Body): CanonicalRequest {
  const model = reqString(b.model, 'model');
  for (const k of ['conversation', 'prompt']) refuse(b, k, STATELESS);
  // Only an unresolved one gets here (a direct decode, outside the gateway's front end).
  refuse(b, 'previous_response_id', 'this decoder does not resolve stored responses.');
  if (b.background === true) throw invalid('background is not supported: answers are returned on the request.', 'background');
  const system: SystemBlock[] = [];
  const instructions = optString(b.instructions, 'instructions');
  if (instructions !== undefined) system.push({ role: 'system', text: instructions });
  const messages = decodeInput(b.input, system);
  const req: CanonicalRequest = {
    model,
    system,
    messages,
    tools: decodeTools(b.tools),
    toolChoice: decodeToolChoice(b.tool_choice),
    maxTokens: optInt(b.max_output_tokens, 'max_output_tokens', 1) ?? null,
    stop: [],
    n: 1,
    responseFormat: decodeTextFormat(b.text),
    reasoning: given(b.reasoning) ? decodeEffort(reqObject(b.reasoning, 'reasoning').effort, 'reasoning.effort') : null,
    stream: optBool(b.stream, 'stream') ?? false,
    user: optString(b.user, 'user') ?? optString(b.safety_identifier, 'safety_identifier') ?? null,
    extensions: decodeOpenAIExtensions({ top_logprobs: b.top_logprobs, store: b.store }),
  };
  const parallel = optBool(b.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  assignSampling(req, { temperature: b.temperature, top_p: b.top_p });
  return req;
}

function decodeInput(v: unknown, system: SystemBlock[]): CanonicalMessage[] {
  if (typeof v === 'string') return [{ role: 'user', content: [{ type: 'text', text: v }] }];
  const items = reqArray(v, 'input', true);
  const out: CanonicalMessage[] = [];
  items.forEach((raw, i) => {
    const p = `input[${i}]`;
    const item = reqObject(raw, p);
    const type = item.type ?? (given(item.role) ? 'message' : undefined);
    switch (type) {
      case 'message':
        return decodeMessageItem(item, p, system, out);
      case 'function_call': {
        const call: ContentPart = {
          type: 'tool_call',
          id: reqString(item.call_id, `${p}.call_id`),
          name: reqString(item.name, `${p}.name`),
          arguments: reqString(item.arguments, `${p}.arguments`, true),
        };
        return appendTo(out, 'assistant', [call]);
      }
      case 'function_call_output': {
        const result: ContentPart = {
          type: 'tool_result',
          toolCallId: reqString(item.call_id, `${p}.call_id`),
          content: toolOutput(item.output, `${p}.output`),
        };
        return appendTo(out, 'tool', [result]);
      }
      case 'reasoning':
        return;
      default:
        throw invalid(`${p}.type "${String(type)}" is not supported; use message, function_call or function_call_output.`, `${p}.type`);
    }
  });
  if (out.length === 0) throw invalid('input must contain at least one user, assistant or tool item.', 'input');
  return out;
}

/** Assistant text and the function calls that follow it are one turn; consecutive outputs are one tool turn. */
function appendTo(out: CanonicalMessage[], role: 'assistant' | 'tool', parts: ContentPart[]): void {
  const last = out[out.length - 1];
  if (last?.role === role) last.content.push(...parts);
  else out.push({ role, content: parts });
}

function decodeMessageItem(item: Body, p: string, system: SystemBlock[], out: CanonicalMessage[]): void {
  const role = item.role;
  const path = `${p}.content`;
  if (role === 'system' || role === 'developer') {
    for (const part of parts(item.content, path)) {
      if (part.type !== 'text') throw invalid(`${path} of a ${role} message may only hold text.`, path);
      system.push({ role, text: part.text });
    }
    return;
  }
  if (role === 'user') return void out.push({ role: 'user', content: parts(item.content, path) });
  if (role === 'assistant') {
    const content = parts(item.content, path);
    if (content.some((c) => c.type !== 'text')) throw invalid(`${path} of an assistant message may only hold text.`, path);
    return appendTo(out, 'assistant', content);
  }
  throw invalid(`${p}.role must be one of user, assistant, system, developer.`, `${p}.role`);
}

const TEXT_TYPES = new Set(['input_text', 'output_text']);

function parts(content: unknown, path: string): (TextPart | ImagePart)[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return reqArray(content, path).map((raw, i): TextPart | ImagePart => {
    const q = `${path}[${i}]`;
    const part = reqObject(raw, q);
    if (typeof part.type === 'string' && TEXT_TYPES.has(part.type)) return { type: 'text', text: reqString(part.text, `${q}.text`, true) };
    if (part.type === 'refusal') return { type: 'text', text: reqString(part.refusal, `${q}.refusal`, true) };
    if (part.type === 'input_image') return inputImage(part, q);
    throw invalid(`${q}.type "${String(part.type)}" is not supported; use input_text, input_image or output_text.`, `${q}.type`);
  });
}

function inputImage(part: Body, q: string): ImagePart {
  if (given(part.file_id)) throw invalid(`${q}.file_id is not supported; send image_url (a URL or a data: URL).`, `${q}.file_id`);
  const img: ImagePart = { type: 'image', source: imageSourceFromUrl(part.image_url, `${q}.image_url`) };
  const detail = optDetail(part.detail, `${q}.detail`);
  if (detail !== undefined) img.detail = detail;
  return img;
}

function toolOutput(v: unknown, path: string): (TextPart | ImagePart)[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  if (!Array.isArray(v)) throw invalid(`${path} must be a string or an array of input_text / input_image parts.`, path);
  return parts(v, path);
}

function decodeTools(v: unknown): ToolDefinition[] {
  if (!given(v)) return [];
  return reqArray(v, 'tools').map((raw, i) => {
    const p = `tools[${i}]`;
    const t = reqObject(raw, p);
    if (t.type !== 'function') {
      throw invalid(`${p}.type "${String(t.type)}" is not supported: only function tools are; hosted tools run on OpenAI's side only.`, `${p}.type`);
    }
    const tool: ToolDefinition = {
      name: reqString(t.name, `${p}.name`),
      parameters: given(t.parameters) ? jsonObject(t.parameters, `${p}.parameters`) : emptyParameters(),
    };
    const description = optString(t.description, `${p}.description`);
    if (description !== undefined) tool.description = description;
    // Only an explicit strict travels: the Responses default (true) would impose OpenAI's strict schema rules
    // on other upstreams.
    const strict = optBool(t.strict, `${p}.strict`);
    if (strict !== undefined) tool.strict = strict;
    return tool;
  });
}

/** `text.format`: text, json_object, or a flat json_schema `{type, name, schema, strict}`. */
function decodeTextFormat(v: unknown): ResponseFormat | null {
  if (!given(v)) return null;
  const text = reqObject(v, 'text');
  if (!given(text.format)) return null;
  const f = reqObject(text.format, 'text.format');
  if (f.type === 'text' || f.type === 'json_object') return { type: f.type };
  if (f.type === 'json_schema') return jsonSchemaFormat(f, 'text.format');
  throw invalid('text.format.type must be text, json_object or json_schema.', 'text.format.type');
}
