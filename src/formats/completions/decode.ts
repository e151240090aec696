/**
 * Legacy text completion (POST /v1/completions) -> canonical requests.
 *
 * The canonical request holds one conversation, so each prompt becomes its own request (one user message
 * with the prompt text, `n` choices). A string or a one-element array is the single case `completionsFormat`
 * serves; a longer array decodes to a list (`decodeCompletions`) that the pipeline serves as one upstream
 * call per prompt and encodes back as one answer with `encodeCompletions` (choice index = prompt index * n +
 * choice). Streaming a multi-prompt body is refused: one SSE stream cannot interleave several upstream
 * streams under the single-stream encoder contract.
 */
import type { CanonicalRequest, RequestExtensions } from '../../canonical/types.js';
import { invalid } from '../../errors/gateway-error.js';
import { assignSampling, decodeOpenAIExtensions } from '../chat-completions/decode.js';
import { type Body, given, isObj, optBool, optInt, optString, refuse, reqString, stopList } from '../fields.js';

/** Contract defaults and limits (POST /v1/completions, Limits). */
export const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;
export const COMPLETIONS_MAX_LOGPROBS = 5;
export const COMPLETIONS_MAX_STOPS = 4;
const USER_MAX = 200;

export interface CompletionsPlan {
  /** One canonical request per prompt, in prompt order. */
  requests: CanonicalRequest[];
  prompts: string[];
  /** `echo: true`: each choice's text starts with its prompt. */
  echo: boolean;
  /** Requested `logprobs` (0-5) or null. */
  logprobs: number | null;
}

export function planCompletions(b: Body): CompletionsPlan {
  const model = reqString(b.model, 'model');
  const prompts = decodePrompt(b.prompt);
  refuse(b, 'suffix', 'insertion (suffix) has no canonical equivalent.');
  const n = optInt(b.n, 'n', 1, 128) ?? 1;
  const bestOf = optInt(b.best_of, 'best_of', 1, 20);
  if (bestOf !== undefined && bestOf !== n) throw invalid('best_of is not supported unless it equals n.', 'best_of');
  const stream = optBool(b.stream, 'stream') ?? false;
  if (stream && prompts.length > 1) throw invalid('stream: true takes a single prompt; send one request per prompt.', 'prompt');
  if (given(b.stream_options) && !isObj(b.stream_options)) throw invalid('stream_options must be an object.', 'stream_options');
  const logprobs = optInt(b.logprobs, 'logprobs', 0, COMPLETIONS_MAX_LOGPROBS) ?? null;
  const user = optString(b.user, 'user') ?? null;
  if (user !== null && user.length > USER_MAX) throw invalid(`user must be at most ${USER_MAX} characters.`, 'user');
  const stop = stopList(b.stop, 'stop', COMPLETIONS_MAX_STOPS);
  const maxTokens = optInt(b.max_tokens, 'max_tokens', 1) ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
  const echo = optBool(b.echo, 'echo') ?? false;
  // Chat-only fields must not slip in through the shared reader: legacy logprobs is an integer.
  const ext = decodeOpenAIExtensions({ logit_bias: b.logit_bias, store: b.store });
  const extensions: RequestExtensions = logprobs === null ? ext : { ...ext, openai: { ...ext.openai, logprobs: true, topLogprobs: logprobs } };
  const requests = prompts.map((prompt): CanonicalRequest => {
    const req: CanonicalRequest = {
      model,
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
      tools: [],
      toolChoice: null,
      maxTokens,
      stop: [...stop],
      n,
      responseFormat: null,
      reasoning: null,
      stream,
      user,
      extensions: structuredClone(extensions),
    };
    assignSampling(req, b);
    return req;
  });
  return { requests, prompts, echo, logprobs };
}

export function decodeCompletions(b: Body): CanonicalRequest[] {
  return planCompletions(b).requests;
}

/** The single-prompt case (`completionsFormat.decode`). */
export function decodeCompletion(b: Body): CanonicalRequest {
  const { requests } = planCompletions(b);
  if (requests.length !== 1) throw invalid('prompt arrays of more than one prompt are not supported here; send one request per prompt.', 'prompt');
  return requests[0]!;
}

function decodePrompt(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) throw invalid('prompt is required and must be a string or an array of strings.', 'prompt');
  if (v.length === 0) throw invalid('prompt must not be an empty array.', 'prompt');
  if (!v.every((p) => typeof p === 'string')) {
    throw invalid('prompt must be a string or an array of strings; token-id prompts are not supported.', 'prompt');
  }
  return v as string[];
}

/** stream_options.include_usage (chat and legacy completions): the client wants a usage chunk. */
export function wantsStreamUsage(b: Body): boolean {
  return isObj(b.stream_options) && b.stream_options.include_usage === true;
}
