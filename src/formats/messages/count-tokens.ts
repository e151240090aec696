/**
 * POST /v1/messages/count_tokens: validates the body (model, messages, system, tools, tool_choice, thinking)
 * with the same decoders as POST /v1/messages, and returns what the pipeline counts in the worker pool: the
 * prompt texts (system blocks, message text, tool_use inputs, tool_result text, tool schemas as JSON), an
 * image token estimate (see image-tokens.ts) and the message count for per-message overhead.
 */
import { countMessages, promptImages, promptTexts } from '../../canonical/prompt-text.js';
import type { CanonicalRequest } from '../../canonical/types.js';
import { type Body, reqString } from '../fields.js';
import { decodeMessages, decodeSystem, decodeThinking, decodeToolChoice, decodeTools } from './content.js';
import { imageSourceTokens } from './image-tokens.js';

export interface CountTokensPlan {
  texts: string[];
  imageTokens: number;
  messageCount: number;
}

export function countTokensPlan(b: Body): CountTokensPlan {
  const req: CanonicalRequest = {
    model: reqString(b.model, 'model'),
    system: decodeSystem(b.system),
    messages: decodeMessages(b.messages),
    tools: decodeTools(b.tools),
    toolChoice: decodeToolChoice(b.tool_choice).toolChoice,
    maxTokens: null,
    stop: [],
    n: 1,
    responseFormat: null,
    reasoning: decodeThinking(b.thinking, null),
    stream: false,
    user: null,
    extensions: {},
  };
  let imageTokens = 0;
  for (const img of promptImages(req)) imageTokens += imageSourceTokens(img.source);
  return { texts: promptTexts(req), imageTokens, messageCount: countMessages(req) };
}
