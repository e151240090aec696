/**
 * The parameter table of the OpenAI chat-completions family. OpenAI, Azure OpenAI, Mistral and
 * self-hosted OpenAI-compatible servers share one request builder, response parser and stream decoder;
 * what differs between them is data in a `ChatParams` row, never a copied transform.
 */
import type { TokenUsage } from '../../billing/price.js';
import { fromOpenAIUsage } from './usage.js';

export interface ChatParams {
  /** Provider name used in error messages. */
  readonly provider: string;
  /** Field carrying the output cap (OpenAI deprecated `max_tokens` for `max_completion_tokens`). */
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Field carrying the sampling seed; null drops it. */
  readonly seedField: 'seed' | 'random_seed' | null;
  /** Wire value for "must call some tool". */
  readonly requiredToolChoice: 'required' | 'any';
  /** Role that carries developer instructions ('system' where the server has no developer role). */
  readonly developerRole: 'developer' | 'system';
  /** `stream_options.include_usage` asks for the usage chunk; `always` servers send it unasked. */
  readonly streamUsage: 'stream_options' | 'always';
  /** Optional request fields the upstream accepts; a field it would reject is dropped instead. */
  readonly accepts: {
    readonly user: boolean;
    readonly reasoningEffort: boolean;
    readonly topK: boolean;
    readonly n: boolean;
    /** A message's author `name`. */
    readonly names: boolean;
    /** logprobs, top_logprobs, logit_bias, store (`extensions.openai`). */
    readonly openaiExtensions: boolean;
  };
  /** Rewrites tool-call ids the upstream would refuse (Mistral wants exactly 9 alphanumerics). */
  readonly toolCallId: (id: string) => string;
  /** The upstream `usage` object -> TokenUsage (cache reads moved out of input tokens). */
  readonly usage: (u: Record<string, unknown>) => TokenUsage;
}

const same = (id: string): string => id;

export const OPENAI_PARAMS: ChatParams = Object.freeze({
  provider: 'openai',
  maxTokensField: 'max_completion_tokens',
  seedField: 'seed',
  requiredToolChoice: 'required',
  developerRole: 'developer',
  streamUsage: 'stream_options',
  accepts: { user: true, reasoningEffort: true, topK: false, n: true, names: true, openaiExtensions: true },
  toolCallId: same,
  usage: fromOpenAIUsage,
});
