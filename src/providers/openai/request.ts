/**
 * Canonical request -> chat-completions body (OpenAI API reference, "Create chat completion"), shaped by a
 * `ChatParams` row so OpenAI-compatible upstreams reuse it. Tool results become `tool` messages right
 * after the assistant turn that called them; images are `image_url` parts (base64 as a data: URL).
 */
import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  JsonObject,
  JsonValue,
  ReasoningConfig,
  ResponseFormat,
  ToolChoice,
  ToolResultPart,
} from '../../canonical/types.js';
import type { ChatParams } from './params.js';

export function imageUrl(part: ImagePart): string {
  const s = part.source;
  return s.kind === 'url' ? s.url : `data:${s.mediaType};base64,${s.data}`;
}

function imagePart(part: ImagePart): JsonObject {
  const image: JsonObject = { url: imageUrl(part) };
  if (part.detail) image.detail = part.detail;
  return { type: 'image_url', image_url: image };
}

/** User content: a plain string when it is one text part (what most servers expect), else parts. */
function userContent(parts: ContentPart[]): JsonValue {
  const only = parts[0];
  if (parts.length === 1 && only?.type === 'text') return only.text;
  const out: JsonValue[] = [];
  for (const p of parts) {
    if (p.type === 'text') out.push({ type: 'text', text: p.text });
    else if (p.type === 'image') out.push(imagePart(p));
  }
  return out;
}

function assistantMessage(m: CanonicalMessage, p: ChatParams): JsonObject {
  const text = m.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
  const calls = m.content.flatMap((c) =>
    c.type === 'tool_call'
      ? [{ id: p.toolCallId(c.id), type: 'function', function: { name: c.name, arguments: c.arguments } }]
      : [],
  );
  // Thinking parts have no place in a chat-completions history: the API neither accepts nor needs them.
  const msg: JsonObject = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
  if (calls.length > 0) msg.tool_calls = calls;
  if (m.name !== undefined && p.accepts.names) msg.name = m.name;
  return msg;
}

function toolMessage(r: ToolResultPart, p: ChatParams): JsonObject {
  const text = r.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return { role: 'tool', tool_call_id: p.toolCallId(r.toolCallId), content: text };
}

function pushTurn(out: JsonObject[], m: CanonicalMessage, p: ChatParams): void {
  if (m.role === 'assistant') {
    out.push(assistantMessage(m, p));
    return;
  }
  const results = m.content.filter((c): c is ToolResultPart => c.type === 'tool_result');
  for (const r of results) out.push(toolMessage(r, p));
  // Tool messages carry text only: images a tool returned follow as a user turn, so the model still sees them.
  const resultImages = results.flatMap((r) => r.content.filter((c): c is ImagePart => c.type === 'image'));
  const rest = m.content.filter((c) => c.type === 'text' || c.type === 'image');
  const user = [...resultImages, ...rest];
  if (user.length === 0) return;
  const msg: JsonObject = { role: 'user', content: userContent(user) };
  if (m.name !== undefined && m.role === 'user' && p.accepts.names) msg.name = m.name;
  out.push(msg);
}

export function chatMessages(req: CanonicalRequest, p: ChatParams): JsonObject[] {
  const out: JsonObject[] = req.system.map((s) => ({
    role: s.role === 'developer' ? p.developerRole : 'system',
    content: s.text,
  }));
  for (const m of req.messages) pushTurn(out, m, p);
  return out;
}

function toolChoice(c: ToolChoice, p: ChatParams): JsonValue {
  if (c.type === 'tool') return { type: 'function', function: { name: c.name } };
  return c.type === 'required' ? p.requiredToolChoice : c.type;
}

function responseFormat(f: ResponseFormat): JsonObject {
  if (f.type !== 'json_schema') return { type: f.type };
  const schema: JsonObject = { name: f.name, schema: f.schema };
  if (f.strict !== undefined) schema.strict = f.strict;
  return { type: 'json_schema', json_schema: schema };
}

/** An Anthropic/Gemini-style thinking budget expressed as OpenAI's effort levels. */
export function effortOf(r: ReasoningConfig | null): string | null {
  if (!r) return null;
  if (r.effort) return r.effort;
  if (r.budgetTokens === undefined) return null;
  if (r.budgetTokens === 0) return 'minimal';
  if (r.budgetTokens <= 2048) return 'low';
  return r.budgetTokens <= 16384 ? 'medium' : 'high';
}

function samplingFields(req: CanonicalRequest, p: ChatParams, body: JsonObject): void {
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.topK !== undefined && p.accepts.topK) body.top_k = req.topK;
  if (req.presencePenalty !== undefined) body.presence_penalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) body.frequency_penalty = req.frequencyPenalty;
  if (req.seed !== undefined && p.seedField !== null) body[p.seedField] = req.seed;
  if (req.stop.length > 0) body.stop = req.stop;
  if (req.n !== 1 && p.accepts.n) body.n = req.n;
}

function openaiExtensions(req: CanonicalRequest, body: JsonObject): void {
  const x = req.extensions.openai;
  if (!x) return;
  if (x.logprobs !== undefined) body.logprobs = x.logprobs;
  if (x.topLogprobs !== undefined) body.top_logprobs = x.topLogprobs;
  if (x.logitBias !== undefined) body.logit_bias = x.logitBias;
  if (x.store !== undefined) body.store = x.store;
}

/** The whole chat-completions body for `model` with the output cap `maxTokens`. */
export function toChatRequest(req: CanonicalRequest, model: string, maxTokens: number, p: ChatParams): JsonObject {
  const body: JsonObject = { model, messages: chatMessages(req, p) };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => {
      const fn: JsonObject = { name: t.name, parameters: t.parameters };
      if (t.description !== undefined) fn.description = t.description;
      if (t.strict !== undefined) fn.strict = t.strict;
      return { type: 'function', function: fn };
    });
    // OpenAI refuses parallel_tool_calls without tools.
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.toolChoice) body.tool_choice = toolChoice(req.toolChoice, p);
  body[p.maxTokensField] = maxTokens;
  samplingFields(req, p, body);
  if (req.responseFormat) body.response_format = responseFormat(req.responseFormat);
  const effort = p.accepts.reasoningEffort ? effortOf(req.reasoning) : null;
  if (effort !== null) body.reasoning_effort = effort;
  if (req.user !== null && p.accepts.user) body.user = req.user;
  if (p.accepts.openaiExtensions) openaiExtensions(req, body);
  if (req.stream) {
    body.stream = true;
    if (p.streamUsage === 'stream_options') body.stream_options = { include_usage: true };
  }
  return body;
}
