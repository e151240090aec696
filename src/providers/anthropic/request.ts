/**
 * Canonical request -> Anthropic Messages API body (POST /v1/messages).
 *
 * Wire decisions (Messages API reference):
 * - system and developer instructions become `system` text blocks, cache breakpoints kept;
 * - `tool` messages become user messages of `tool_result` blocks; consecutive same-role turns are merged
 *   (the API wants alternating turns), and in a merged user turn tool results come first, as required;
 * - thinking parts without a signature (from another provider) are dropped: the API rejects them;
 * - temperature is clamped to Anthropic's 0..1 (chat clients may send up to 2), see thinking.ts;
 * - JSON mode has no Messages API parameter: it becomes a system instruction (with the schema);
 * - seed, penalties and logprobs do not exist upstream and are not sent; n > 1 is refused.
 */
import { alternatingTurns } from '../../canonical/turns.js';
import type {
  CacheControl,
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  JsonValue,
  ResponseFormat,
  SystemBlock,
  TextPart,
  ToolChoice,
  ToolDefinition,
} from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { clampTemperature, thinkingBudget, thinkingTopP } from './thinking.js';
import type { WireBlock, WireCacheControl, WireImage, WireMessage, WireRequest, WireText, WireTool, WireToolChoice } from './wire.js';

function cache(c: CacheControl | undefined): { cache_control?: WireCacheControl } {
  if (!c) return {};
  return { cache_control: c.ttl ? { type: 'ephemeral', ttl: c.ttl } : { type: 'ephemeral' } };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function toImage(part: ImagePart): WireImage {
  const { source } = part;
  if (source.kind === 'base64') {
    return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data }, ...cache(part.cacheControl) };
  }
  // A data: URL is inline bytes; Anthropic's `url` source only fetches http(s) URLs.
  const data = DATA_URL.exec(source.url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1]!, data: data[2]! }, ...cache(part.cacheControl) };
  return { type: 'image', source: { type: 'url', url: source.url }, ...cache(part.cacheControl) };
}

function toText(part: TextPart): WireText[] {
  // The API rejects empty text blocks ("text content blocks must be non-empty").
  return part.text.length > 0 ? [{ type: 'text', text: part.text, ...cache(part.cacheControl) }] : [];
}

/** Tool-call arguments are JSON text; Anthropic wants the object. Empty text means no arguments. */
export function toolInput(args: string, id: string): JsonValue {
  if (args.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw invalid(`The arguments of tool call '${id}' are not valid JSON.`, 'messages');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`The arguments of tool call '${id}' must be a JSON object.`, 'messages');
  }
  return value as JsonValue;
}

function toBlocks(part: ContentPart): WireBlock[] {
  switch (part.type) {
    case 'text':
      return toText(part);
    case 'image':
      return [toImage(part)];
    case 'tool_call':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: toolInput(part.arguments, part.id) }];
    case 'tool_result': {
      const content = part.content.flatMap((c): (WireText | WireImage)[] => (c.type === 'text' ? toText(c) : [toImage(c)]));
      return [
        {
          type: 'tool_result',
          tool_use_id: part.toolCallId,
          content,
          ...(part.isError ? { is_error: true } : {}),
          ...cache(part.cacheControl),
        },
      ];
    }
    case 'thinking':
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      return part.signature ? [{ type: 'thinking', thinking: part.text, signature: part.signature }] : [];
  }
}

/** Messages with alternating roles: tool results travel in user turns, same-role neighbours merge. */
export function toMessages(messages: readonly CanonicalMessage[]): WireMessage[] {
  return alternatingTurns(messages, toBlocks, (b) => b.type === 'tool_result');
}

/** JSON mode as an instruction: the Messages API has no response_format. */
export function jsonInstruction(format: ResponseFormat | null): string | null {
  if (format === null || format.type === 'text') return null;
  if (format.type === 'json_object') return 'Respond with a single valid JSON object and nothing else.';
  return `Respond with a single valid JSON object and nothing else. It must conform to this JSON Schema (${format.name}): ${JSON.stringify(format.schema)}`;
}

function toSystem(system: readonly SystemBlock[], format: ResponseFormat | null): WireText[] {
  const blocks: WireText[] = system.filter((b) => b.text.length > 0).map((b) => ({ type: 'text', text: b.text, ...cache(b.cacheControl) }));
  const json = jsonInstruction(format);
  if (json !== null) blocks.push({ type: 'text', text: json });
  return blocks;
}

function toTool(tool: ToolDefinition): WireTool {
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input_schema: tool.parameters,
    ...cache(tool.cacheControl),
  };
}

function toToolChoice(choice: ToolChoice | null, parallel: boolean | undefined): WireToolChoice | undefined {
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === null) return parallel === false ? { type: 'auto', ...single } : undefined;
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...single };
    case 'required':
      return { type: 'any', ...single };
    case 'tool':
      return { type: 'tool', name: choice.name, ...single };
    case 'none':
      return { type: 'none' };
  }
}

function metadataOf(req: CanonicalRequest): Record<string, JsonValue> | undefined {
  const extra = req.extensions.anthropic?.metadata ?? {};
  const metadata = req.user !== null ? { ...extra, user_id: req.user } : extra;
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/** The whole Messages API body. `model` is the upstream name; `maxTokens` the cap to send. */
export function toAnthropicRequest(req: CanonicalRequest, model: string, maxTokens: number): WireRequest {
  if (req.n > 1) throw invalid('This model does not support n > 1.', 'n');
  const body: WireRequest = { model, max_tokens: maxTokens, messages: toMessages(req.messages) };
  const system = toSystem(req.system, req.responseFormat);
  if (system.length > 0) body.system = system;
  if (req.tools.length > 0) {
    body.tools = req.tools.map(toTool);
    const choice = toToolChoice(req.toolChoice, req.parallelToolCalls);
    if (choice) body.tool_choice = choice;
  }
  const budget = thinkingBudget(req.reasoning, maxTokens, req.tools.length > 0 ? req.toolChoice : null);
  if (budget !== null) body.thinking = { type: 'enabled', budget_tokens: budget };
  if (req.stop.length > 0) body.stop_sequences = [...req.stop];
  if (budget === null) {
    if (req.temperature !== undefined) body.temperature = clampTemperature(req.temperature);
    if (req.topP !== undefined) body.top_p = req.topP;
    if (req.topK !== undefined) body.top_k = req.topK;
  } else if (req.topP !== undefined) {
    body.top_p = thinkingTopP(req.topP);
  }
  const metadata = metadataOf(req);
  if (metadata) body.metadata = metadata;
  if (req.stream) body.stream = true;
  return body;
}
