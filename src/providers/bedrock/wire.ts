/**
 * Bedrock Runtime Converse wire types (API reference: Converse, Message, ContentBlock, ToolConfiguration,
 * InferenceConfiguration). Blobs (image bytes, redacted reasoning) travel base64-encoded in JSON.
 */
import type { JsonObject, JsonValue } from '../../canonical/types.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface CachePoint {
  cachePoint: { type: 'default'; ttl?: '5m' | '1h' };
}

export interface ImageBlock {
  image: { format: ImageFormat; source: { bytes: string } | { s3Location: { uri: string } } };
}

export type ToolResultContent = { text: string } | ImageBlock;

export type ContentBlock =
  | { text: string }
  | ImageBlock
  | { toolUse: { toolUseId: string; name: string; input: JsonValue } }
  | { toolResult: { toolUseId: string; content: ToolResultContent[]; status?: 'success' | 'error' } }
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string } }
  | CachePoint;

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export type SystemBlock = { text: string } | CachePoint;

export type Tool = { toolSpec: { name: string; description?: string; inputSchema: { json: JsonObject } } } | CachePoint;

export type ToolChoice = { auto: JsonObject } | { any: JsonObject } | { tool: { name: string } };

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: SystemBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: Tool[]; toolChoice?: ToolChoice };
  additionalModelRequestFields?: JsonObject;
  additionalModelResponseFieldPaths?: string[];
}
