/**
 * Canonical request -> Bedrock Converse body (the model id travels in the path, not the body).
 *
 * Wire decisions (Converse API reference):
 * - a cache breakpoint on a system block, message part or tool becomes a `cachePoint` block after it;
 * - images: base64 bytes, `data:` URLs decoded, `s3://` URLs as s3Location only for buckets the operator
 *   allows the organization (Bedrock reads them with our credentials: the adapter checks ../storage-urls.ts); other URLs are
 *   refused, Converse cannot fetch them;
 * - tool_choice none has no Converse form: the tools stay declared only when the history holds tool
 *   blocks (Converse then requires a toolConfig), otherwise the toolConfig is left out;
 * - Claude models get Anthropic's `thinking` and `top_k` in additionalModelRequestFields (the same budget
 *   rules as the direct API, ../anthropic/thinking.ts) and return the matched stop sequence;
 * - temperature is clamped to 0..1, the range Converse models accept.
 */
import { alternatingTurns } from '../../canonical/turns.js';
import type { CacheControl, CanonicalMessage, CanonicalRequest, ContentPart, ImagePart, JsonObject, JsonValue, ResponseFormat, ToolChoice as CanonicalToolChoice } from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { clampTemperature, thinkingBudget, thinkingTopP } from '../anthropic/thinking.js';
import type { CachePoint, ContentBlock, ConverseMessage, ConverseRequest, ImageBlock, ImageFormat, SystemBlock, Tool, ToolChoice, ToolResultContent } from './wire.js';

function cachePoint(c: CacheControl | undefined): CachePoint[] {
  if (!c) return [];
  return [{ cachePoint: c.ttl ? { type: 'default', ttl: c.ttl } : { type: 'default' } }];
}

const FORMATS: Readonly<Record<string, ImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

function formatOf(mediaType: string): ImageFormat {
  const format = FORMATS[mediaType.toLowerCase()];
  if (!format) throw invalid(`Image type '${mediaType}' is not supported by this model (png, jpeg, gif, webp).`, 'messages');
  return format;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;
const S3_EXT = /\.(png|jpe?g|gif|webp)$/i;

function toImage(part: ImagePart): ImageBlock {
  const { source } = part;
  if (source.kind === 'base64') return { image: { format: formatOf(source.mediaType), source: { bytes: source.data } } };
  const data = DATA_URL.exec(source.url);
  if (data) return { image: { format: formatOf(data[1]!), source: { bytes: data[2]! } } };
  const ext = S3_EXT.exec(source.url)?.[1];
  if (source.url.startsWith('s3://') && ext) {
    return { image: { format: formatOf(`image/${ext}`), source: { s3Location: { uri: source.url } } } };
  }
  throw invalid('This model takes images as base64 data (or s3:// locations), not URLs.', 'messages');
}

function toolInput(args: string, id: string): JsonValue {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonValue;
  } catch {
    /* reported below */
  }
  throw invalid(`The arguments of tool call '${id}' must be a JSON object.`, 'messages');
}

function toBlocks(part: ContentPart): ContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text.length > 0 ? [{ text: part.text }, ...cachePoint(part.cacheControl)] : [];
    case 'image':
      return [toImage(part), ...cachePoint(part.cacheControl)];
    case 'tool_call':
      return [{ toolUse: { toolUseId: part.id, name: part.name, input: toolInput(part.arguments, part.id) } }];
    case 'tool_result': {
      const content = part.content.flatMap((c): ToolResultContent[] => (c.type === 'text' ? (c.text ? [{ text: c.text }] : []) : [toImage(c)]));
      const status = part.isError ? 'error' : 'success';
      return [{ toolResult: { toolUseId: part.toolCallId, content, status } }, ...cachePoint(part.cacheControl)];
    }
    case 'thinking':
      if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
      // Unsigned reasoning (from another provider) cannot be replayed to Claude; Converse would refuse it.
      return part.signature ? [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }] : [];
  }
}

/** Alternating user/assistant turns; tool results ride in user turns, first in their turn. */
export function toConverseMessages(messages: readonly CanonicalMessage[]): ConverseMessage[] {
  return alternatingTurns(messages, toBlocks, (b) => 'toolResult' in b);
}

function jsonInstruction(format: ResponseFormat | null): string | null {
  if (format === null || format.type === 'text') return null;
  const base = 'Respond with a single valid JSON object and nothing else.';
  return format.type === 'json_object' ? base : `${base} It must conform to this JSON Schema (${format.name}): ${JSON.stringify(format.schema)}`;
}

function toSystem(req: CanonicalRequest): SystemBlock[] {
  const blocks = req.system.filter((b) => b.text.length > 0).flatMap((b): SystemBlock[] => [{ text: b.text }, ...cachePoint(b.cacheControl)]);
  const json = jsonInstruction(req.responseFormat);
  return json === null ? blocks : [...blocks, { text: json }];
}

function toToolChoice(choice: CanonicalToolChoice | null): ToolChoice | undefined {
  if (choice === null || choice.type === 'none') return undefined;
  if (choice.type === 'auto') return { auto: {} };
  if (choice.type === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}

function toToolConfig(req: CanonicalRequest, messages: readonly ConverseMessage[]): ConverseRequest['toolConfig'] {
  if (req.tools.length === 0) return undefined;
  const historyHasTools = messages.some((m) => m.content.some((b) => 'toolUse' in b || 'toolResult' in b));
  if (req.toolChoice?.type === 'none' && !historyHasTools) return undefined;
  const tools = req.tools.flatMap((t): Tool[] => [
    { toolSpec: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: { json: t.parameters } } },
    ...cachePoint(t.cacheControl),
  ]);
  const toolChoice = toToolChoice(req.toolChoice);
  return toolChoice ? { tools, toolChoice } : { tools };
}

/** Claude behind Bedrock: plain ids (`anthropic.claude-...`), inference profiles (`us.anthropic...`) and ARNs. */
export function isClaudeModel(modelId: string): boolean {
  return /(^|[.:/])anthropic\./.test(modelId);
}

export function toConverseRequest(req: CanonicalRequest, modelId: string, maxTokens: number): ConverseRequest {
  if (req.n > 1) throw invalid('This model does not support n > 1.', 'n');
  const messages = toConverseMessages(req.messages);
  const body: ConverseRequest = { messages };
  const system = toSystem(req);
  if (system.length > 0) body.system = system;
  const claude = isClaudeModel(modelId);
  const budget = claude ? thinkingBudget(req.reasoning, maxTokens, req.tools.length > 0 ? req.toolChoice : null) : null;
  const inference: NonNullable<ConverseRequest['inferenceConfig']> = { maxTokens };
  if (budget === null && req.temperature !== undefined) inference.temperature = clampTemperature(req.temperature);
  if (req.topP !== undefined) inference.topP = budget === null ? req.topP : thinkingTopP(req.topP);
  if (req.stop.length > 0) inference.stopSequences = [...req.stop];
  body.inferenceConfig = inference;
  const toolConfig = toToolConfig(req, messages);
  if (toolConfig) body.toolConfig = toolConfig;
  const extra: JsonObject = {};
  if (budget !== null) extra.thinking = { type: 'enabled', budget_tokens: budget };
  if (claude && budget === null && req.topK !== undefined) extra.top_k = req.topK;
  if (Object.keys(extra).length > 0) body.additionalModelRequestFields = extra;
  if (claude && req.stop.length > 0) body.additionalModelResponseFieldPaths = ['/stop_sequence'];
  return body;
}
