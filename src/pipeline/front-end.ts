import type { CanonicalRequest } from '../canonical/types.js';
import type { ClientFormat, EncodeContext, FormatName } from '../formats/format.js';
import type { JsonRecord } from './json-body.js';

/** What the stages need of a decoded request, whatever its wire format. */
export interface Prepared {
  model: string;
  stream: boolean;
  /** Requested output cap; null = the model's maximum. */
  maxTokens: number | null;
  /** Output multiplier (n choices) for the hold. */
  n: number;
  user: string | null;
  /** Every piece of prompt text (inspection, token bounds). */
  texts: string[];
  /** Parallel to texts: true for untrusted content (user turns, tool results), scored for prompt injection. */
  untrusted: boolean[];
  messageCount: number;
  /** The client asked for token log probabilities. */
  logprobs?: boolean;
  /** The client asked for usage inside the stream. */
  clientWantsStreamUsage: boolean;
  /** The canonical request (decoded lazily for the chat fast path). */
  canonical(): CanonicalRequest;
  /**
   * Chat format only: the OpenAI-format body for an OpenAI-compatible upstream (byte passthrough when
   * nothing changes). null: every candidate goes through the canonical model.
   */
  passthrough: ((upstreamModel: string) => Buffer | string) | null;
  /** Format-specific additions to the encode context (completions: echo prompts and n). */
  encodeContext?: (base: EncodeContext) => EncodeContext;
}

/** One client-facing route: its format and how to prepare a body for the stages. */
export interface FrontEnd {
  route: string;
  shape: FormatName;
  /** Routes the contract marks as cacheable (they emit x-svc-response-cache). */
  cacheable?: boolean;
  /** The messages routes also accept the key as `x-api-key` (the official Anthropic SDK sends it there). */
  allowXApiKey: boolean;
  format: ClientFormat;
  /**
   * Decodes a body whose control fields were already removed (`touched` = some were); `modelSpan` locates
   * the top-level model value in `raw` (from the parse's own scan) for the byte passthrough.
   */
  prepare(body: JsonRecord, raw: Buffer, touched: boolean, modelSpan: [number, number] | null): Prepared;
  /** Resolves stored state into the body before `prepare` (responses: previous_response_id, item references). */
  expand?(body: JsonRecord, orgId: string): Promise<void>;
}
