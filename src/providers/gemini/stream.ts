/**
 * `streamGenerateContent?alt=sse` -> canonical stream events (Gemini API and Vertex AI). Each SSE event is
 * a whole `GenerateContentResponse` holding the next parts; the chunk with `finishReason` is the last
 * one and carries the final `usageMetadata`, so blocks stop, usage and finish are emitted there. Gemini
 * sends no [DONE]: a stream that closes before a finishReason was cut short. Function calls arrive whole,
 * one `tool_args_delta` each.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalStreamEvent } from '../../canonical/types.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { StreamDecoder } from '../adapter.js';
import { BlockSequencer } from '../openai/blocks.js';
import { SseReader, type SseEvent } from '../sse.js';
import { isRec, rec, str, truncatedStream, type Rec } from '../openai/wire.js';
import { googleErrorMessage } from './errors.js';
import { firstCandidate, geminiPieces, geminiStopReason, promptBlocked, toolCallId, type GeminiPiece } from './response.js';
import { fromGeminiUsage } from './usage.js';

export class GeminiStreamDecoder implements StreamDecoder {
  readonly #provider: string;
  readonly #sse = new SseReader();
  readonly #blocks = new BlockSequencer();
  #started = false;
  #id = '';
  #calls = 0;
  #signatures = 0;
  #usage: TokenUsage | null = null;
  #done = false;

  constructor(provider: string) {
    this.#provider = provider;
  }

  push(chunk: Buffer): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    for (const ev of this.#sse.push(chunk)) this.#event(ev, out);
    return out;
  }

  end(): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    for (const ev of this.#sse.end().events) this.#event(ev, out);
    if (!this.#done) throw truncatedStream(this.#provider);
    return out;
  }

  #event(ev: SseEvent, out: CanonicalStreamEvent[]): void {
    if (this.#done) return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(ev.data);
    } catch {
      throw new GatewayError('upstream_error', { message: `${this.#provider}: unparseable stream chunk.` });
    }
    if (!isRec(chunk)) return;
    if (isRec(chunk.error)) {
      const detail = googleErrorMessage(chunk);
      throw new GatewayError('upstream_error', {
        message: `${this.#provider}: the provider failed mid-stream${detail ? `: ${detail}` : '.'}`,
      });
    }
    this.#chunk(chunk, out);
  }

  #chunk(chunk: Rec, out: CanonicalStreamEvent[]): void {
    if (!this.#started) {
      this.#started = true;
      this.#id = str(chunk.responseId) ?? '';
      out.push({ type: 'start', id: this.#id, upstreamModel: str(chunk.modelVersion) ?? '' });
    }
    const candidate = firstCandidate(chunk);
    for (const piece of geminiPieces(rec(candidate.content).parts)) this.#piece(piece, out);
    if (isRec(chunk.usageMetadata)) this.#usage = fromGeminiUsage(chunk.usageMetadata);
    const blocked = promptBlocked(chunk);
    if (typeof candidate.finishReason === 'string' || blocked) {
      this.#blocks.close(out);
      if (this.#usage) out.push({ type: 'usage', usage: this.#usage });
      const stopReason = blocked ? 'content_filter' : geminiStopReason(candidate.finishReason, this.#calls > 0);
      out.push({ type: 'finish', stopReason, stopSequence: null });
      this.#done = true;
    }
  }

  #piece(piece: GeminiPiece, out: CanonicalStreamEvent[]): void {
    if (piece.kind === 'text') {
      if (piece.text.length === 0) return;
      const index = this.#blocks.open('text', { type: 'text' }, out);
      out.push({ type: 'text_delta', index, text: piece.text });
    } else if (piece.kind === 'thinking') {
      const index = this.#blocks.open('thinking', { type: 'thinking' }, out);
      if (piece.text.length > 0) out.push({ type: 'thinking_delta', index, text: piece.text });
      if (piece.signature) out.push({ type: 'signature_delta', index, signature: piece.signature });
    } else if (piece.kind === 'signature') {
      // Same shape as the non-stream parse: an empty thinking block that only carries the signature.
      const index = this.#blocks.open(`signature:${this.#signatures++}`, { type: 'thinking' }, out);
      out.push({ type: 'signature_delta', index, signature: piece.signature });
    } else {
      const n = this.#calls++;
      const head = { type: 'tool_call' as const, id: piece.id ?? toolCallId(this.#id, n), name: piece.name };
      const index = this.#blocks.open(`tool:${n}`, head, out);
      out.push({ type: 'tool_args_delta', index, json: piece.args });
    }
  }
}
