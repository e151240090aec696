/**
 * Mistral's row of the chat-completions table (Mistral API reference, "Chat Completion"). Differences from
 * OpenAI that matter on the wire: `max_tokens` and `random_seed`; "any" for a forced tool call; no
 * `stream_options` (the final chunk always carries usage); no `user`, `logprobs`, `top_k`, message `name`
 * or developer role. Unknown fields are refused with 422 `extra_forbidden`, so nothing outside this table
 * is sent; and tool-call ids must be exactly 9 characters of [a-zA-Z0-9].
 */
import { createHash } from 'node:crypto';
import { OPENAI_PARAMS, type ChatParams } from '../openai/params.js';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

/**
 * A foreign tool-call id (`call_abc...`, `toolu_...`) as the 9 alphanumerics Mistral demands. Derived from
 * the id by hash, so an assistant's `tool_calls[].id` and the later `tool_call_id` still match.
 */
export function mistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  const bytes = createHash('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += ALPHANUMERIC[(bytes[i] ?? 0) % ALPHANUMERIC.length];
  return out;
}

export const MISTRAL_PARAMS: ChatParams = Object.freeze({
  ...OPENAI_PARAMS,
  provider: 'mistral',
  maxTokensField: 'max_tokens',
  seedField: 'random_seed',
  requiredToolChoice: 'any',
  developerRole: 'system',
  streamUsage: 'always',
  accepts: { user: false, reasoningEffort: true, topK: false, n: true, names: false, openaiExtensions: false },
  toolCallId: mistralToolCallId,
});
