/**
 * Anthropic Messages API wire types (request side), as in the API reference "Create a Message" and the
 * official SDK's `MessageCreateParams`. Only what the gateway sends is typed.
 */
import type { JsonObject, JsonValue } from '../../canonical/types.js';

export interface WireCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export type WireImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface WireText {
  type: 'text';
  text: string;
  cache_control?: WireCacheControl;
}

export interface WireImage {
  type: 'image';
  source: WireImageSource;
  cache_control?: WireCacheControl;
}

export interface WireToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonValue;
}

export interface WireToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: (WireText | WireImage)[];
  is_error?: boolean;
  cache_control?: WireCacheControl;
}

export type WireThinking = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export type WireBlock = WireText | WireImage | WireToolUse | WireToolResult | WireThinking;

export interface WireMessage {
  role: 'user' | 'assistant';
  content: WireBlock[];
}

export interface WireTool {
  name: string;
  description?: string;
  input_schema: JsonObject;
  cache_control?: WireCacheControl;
}

export type WireToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface WireRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  system?: WireText[];
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number };
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  metadata?: JsonObject;
  stream?: boolean;
}
