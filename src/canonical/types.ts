/**
 * The canonical model: our own request / response / stream-event types. Every client format decodes into
 * it and encodes out of it; every provider builds its upstream request from it and parses into it. It is
 * not any vendor's wire format: vendor-only data lives in typed `extensions.<vendor>` fields.
 */
import type { TokenUsage } from '../billing/price.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type JsonObject = { [k: string]: JsonValue };

/** Anthropic-style prompt-cache breakpoint (`cache_control: {type: 'ephemeral', ttl?}`). */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
}

export type ImageSource = { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };

export interface ImagePart {
  type: 'image';
  source: ImageSource;
  /** OpenAI `detail` hint. */
  detail?: 'auto' | 'low' | 'high';
  cacheControl?: CacheControl;
}

export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as produced by the model. */
  arguments: string;
}

export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: (TextPart | ImagePart)[];
  isError?: boolean;
  cacheControl?: CacheControl;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  /** Anthropic's signature over the thinking block (must be echoed back unchanged). */
  signature?: string;
  /** Redacted thinking payload (Anthropic `redacted_thinking.data`). */
  redacted?: string;
}

export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolResultPart | ThinkingPart;

/**
 * Conversation turns. System and developer instructions are kept apart in `CanonicalRequest.system`;
 * tool results travel as `tool_result` parts in a `tool` message (one message may carry several).
 */
export interface CanonicalMessage {
  role: 'user' | 'assistant' | 'tool';
  content: ContentPart[];
  /** Optional author name (chat format `name`). */
  name?: string;
}

export interface SystemBlock {
  /** `developer` keeps the chat/responses developer role distinct from plain system text. */
  role: 'system' | 'developer';
  text: string;
  cacheControl?: CacheControl;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters: JsonObject;
  strict?: boolean;
  cacheControl?: CacheControl;
}

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: JsonObject; strict?: boolean };

export interface ReasoningConfig {
  /** OpenAI-style effort. */
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Anthropic/Gemini-style token budget for thinking. */
  budgetTokens?: number;
}

export interface CanonicalRequest {
  /** The gateway model id the client asked for (routing replaces it with the upstream name per endpoint). */
  model: string;
  system: SystemBlock[];
  messages: CanonicalMessage[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice | null;
  parallelToolCalls?: boolean;
  /** Output cap; null = the model's maximum (the hold and the upstream call then use the catalog value). */
  maxTokens: number | null;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  stop: string[];
  n: number;
  responseFormat: ResponseFormat | null;
  reasoning: ReasoningConfig | null;
  stream: boolean;
  /** End-user id (chat `user`, messages `metadata.user_id`). */
  user: string | null;
  extensions: RequestExtensions;
}

/** Vendor-only request data that has no canonical meaning, carried typed rather than in a loose bag. */
export interface RequestExtensions {
  openai?: { logprobs?: boolean; topLogprobs?: number; logitBias?: Record<string, number>; store?: boolean };
  anthropic?: { betas?: string[]; metadata?: JsonObject };
}

export type StopReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'stop_sequence' | 'error';

export interface CanonicalResponse {
  id: string;
  /** Model name the upstream reported. */
  upstreamModel: string;
  created: number;
  /** Output blocks in order: text, thinking, tool calls. */
  content: (TextPart | ThinkingPart | ToolCallPart)[];
  stopReason: StopReason;
  /** The stop sequence matched, when stopReason is stop_sequence. */
  stopSequence: string | null;
  usage: TokenUsage;
}

/**
 * Stream events. Output blocks are numbered by `index` in order of appearance (a text block, a tool call,
 * ...); each starts, receives deltas and stops. `usage` may arrive more than once (input first, final
 * totals last): the last one wins. `finish` comes after every block stopped.
 */
export type CanonicalStreamEvent =
  | { type: 'start'; id: string; upstreamModel: string }
  | { type: 'block_start'; index: number; block: { type: 'text' } | { type: 'thinking' } | { type: 'tool_call'; id: string; name: string } }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; text: string }
  | { type: 'signature_delta'; index: number; signature: string }
  | { type: 'tool_args_delta'; index: number; json: string }
  | { type: 'block_stop'; index: number }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'finish'; stopReason: StopReason; stopSequence: string | null };
