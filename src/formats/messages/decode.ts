/** Messages (POST /v1/messages) wire JSON -> canonical request. */
import type { CanonicalRequest, ResponseFormat } from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { type Body, given, jsonObject, optBool, optInt, optNumber, optString, refuse, reqObject, reqString, stringArray } from '../fields.js';
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
    responseFormat: decodeOutputConfig(b),
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


/**
 * Anthropic's structured output: `output_config.format` (`{type: 'json_schema', schema}`; the AI SDK's
 * generateObject and LangChain's jsonSchema method send it), or the earlier beta's top-level `output_format`.
 * Any other `output_config` key is refused by name: the gateway never drops a field it cannot honour.
 */
function decodeOutputConfig(b: Body): ResponseFormat | null {
  if (given(b.output_config) && given(b.output_format)) throw invalid('send output_config.format or output_format, not both.', 'output_format');
  if (given(b.output_format)) return outputFormat(b.output_format, 'output_format');
  if (!given(b.output_config)) return null;
  const cfg = reqObject(b.output_config, 'output_config');
  for (const key of Object.keys(cfg)) {
    if (key !== 'format' && given(cfg[key])) throw invalid(`output_config.${key} is not supported by this gateway.`, `output_config.${key}`);
  }
  return given(cfg.format) ? outputFormat(cfg.format, 'output_config.format') : null;
}

function outputFormat(v: unknown, path: string): ResponseFormat {
  const f = reqObject(v, path);
  if (f.type !== 'json_schema') throw invalid(`${path}.type must be "json_schema".`, `${path}.type`);
  if (!given(f.schema)) throw invalid(`${path}.schema is required.`, `${path}.schema`);
  // Anthropic's format has no name; the canonical one needs one for OpenAI-format upstreams.
  return { type: 'json_schema', name: 'response', schema: jsonObject(f.schema, `${path}.schema`) };
}
