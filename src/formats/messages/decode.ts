/** Messages (POST /v1/messages) wire JSON -> canonical request. */
import type { CanonicalRequest } from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { type Body, given, optBool, optInt, optNumber, optString, refuse, reqObject, reqString, stringArray } from '../fields.js';
import { decodeMessages, decodeSystem, decodeThinking, decodeToolChoice, decodeTools } from './content.js';

export function decodeMessagesRequest(b: Body): CanonicalRequest {
  const model = reqString(b.model, 'model');
  if (!given(b.max_tokens)) throw invalid('max_tokens is required.', 'max_tokens');
  const maxTokens = optInt(b.max_tokens, 'max_tokens', 1)!;
  refuse(b, 'mcp_servers', 'MCP connectors run on Anthropic\'s side only.');
  refuse(b, 'container', 'containers run on Anthropic\'s side only.');
  const { toolChoice, parallel } = decodeToolChoice(b.tool_choice);
  const req: CanonicalRequest = {
    model,
    system: decodeSystem(b.system),
    messages: decodeMessages(b.messages),
    tools: decodeTools(b.tools),
    toolChoice,
    maxTokens,
    stop: stringArray(b.stop_sequences, 'stop_sequences'),
    n: 1,
    responseFormat: null,
    reasoning: decodeThinking(b.thinking, maxTokens),
    stream: optBool(b.stream, 'stream') ?? false,
    user: metadataUser(b.metadata),
    extensions: {},
  };
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  // Anthropic's ranges: temperature 0-1 (not OpenAI's 0-2).
  const t = optNumber(b.temperature, 'temperature', 0, 1);
  if (t !== undefined) req.temperature = t;
  const p = optNumber(b.top_p, 'top_p', 0, 1);
  if (p !== undefined) req.topP = p;
  const k = optInt(b.top_k, 'top_k', 0);
  if (k !== undefined) req.topK = k;
  return req;
}

function metadataUser(v: unknown): string | null {
  if (!given(v)) return null;
  const m = reqObject(v, 'metadata');
  return optString(m.user_id, 'metadata.user_id') ?? null;
}

