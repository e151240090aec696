/**
 * `chat.completion.chunk` SSE -> canonical stream events, for OpenAI and every OpenAI-compatible upstream.
 * Choice 0 only (the canonical model has one output). Text, thinking (`reasoning_content` / `reasoning`)
 * and each tool call (by its upstream `index`) become numbered blocks. `finish` waits for `data: [DONE]`
 * so the usage chunk (stream_options.include_usage, after the finish_reason chunk) is reported first;
 * a server that sends no usage (some self-hosted ones) or no [DONE] still finishes at end of stream.
 */
import type { CanonicalStreamEvent, StopReason } from '../../canonical/types.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { StreamDecoder } from '../adapter.js';
import { BlockSequencer } from './blocks.js';
import type { ChatParams } from './params.js';
import { argumentsText, chatStopReason, contentPieces, reasoningText } from './response.js';
import { SseReader, type SseEvent } from '../sse.js';
import { arr, isRec, rec, str, truncatedStream, type Rec } from './wire.js';

export class OpenAIStreamDecoder implements StreamDecoder {
  readonly #params: ChatParams;
  readonly #sse = new SseReader();
  readonly #blocks = new BlockSequencer();
  #started = false;
  #id = '';
  #toolCount = 0;
  #finishReason: unknown = null;
  #sawFinishReason = false;
  #done = false;

  constructor(params: ChatParams) {
    this.#params = params;
  }

  push(chunk: Buffer): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    for (const ev of this.#sse.push(chunk)) this.#event(ev, out);
    return out;
  }

  end(): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    for (const ev of this.#sse.end().events) this.#event(ev, out);
    if (this.#done) return out;
    // No [DONE], but the model finished: some servers close right after the last chunk.
    if (!this.#sawFinishReason) throw truncatedStream(this.#params.provider);
    this.#finish(out);
    return out;
  }

  #event(ev: SseEvent, out: CanonicalStreamEvent[]): void {
    if (this.#done) return;
    const data = ev.data.trim();
    if (data === '[DONE]') {
      this.#finish(out);
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new GatewayError('upstream_error', { message: `${this.#params.provider}: unparseable stream chunk.` });
    }
    if (!isRec(chunk)) return;
    if (chunk.error !== undefined && chunk.error !== null) {
      // Our own words only: the provider's text may name the operator's account (error-detail.ts).
      throw new GatewayError('upstream_error', { message: `${this.#params.provider}: the provider failed mid-stream.` });
    }
    this.#chunk(chunk, out);
  }

  #chunk(chunk: Rec, out: CanonicalStreamEvent[]): void {
    const choices = arr(chunk.choices);
    // Azure sends a first chunk with `choices: []` and an empty id, carrying only prompt filter results.
    if (!this.#started && (choices.length > 0 || isRec(chunk.usage))) {
      this.#started = true;
      this.#id = str(chunk.id) ?? '';
      out.push({ type: 'start', id: this.#id, upstreamModel: str(chunk.model) ?? '' });
    }
    const choice = rec(choices.find((c) => rec(c).index === 0 || rec(c).index === undefined));
    const delta = rec(choice.delta);
    const thinking = reasoningText(delta);
    if (thinking) this.#piece('thinking', thinking, out);
    for (const piece of contentPieces(delta.content)) this.#piece(piece.kind, piece.text, out);
    if (typeof delta.refusal === 'string' && delta.refusal.length > 0) this.#piece('text', delta.refusal, out);
    for (const call of arr(delta.tool_calls)) this.#toolCall(rec(call), out);
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
      this.#sawFinishReason = true;
      this.#finishReason = choice.finish_reason;
      this.#blocks.close(out);
    }
    if (isRec(chunk.usage)) out.push({ type: 'usage', usage: this.#params.usage(chunk.usage) });
  }

  #piece(kind: 'text' | 'thinking', text: string, out: CanonicalStreamEvent[]): void {
    const index = this.#blocks.open(kind, { type: kind }, out);
    out.push(kind === 'text' ? { type: 'text_delta', index, text } : { type: 'thinking_delta', index, text });
  }

  #toolCall(call: Rec, out: CanonicalStreamEvent[]): void {
    const fn = rec(call.function);
    // Without `index` (Ollama, Mistral send each call whole), an id or name starts a call; else it continues one.
    const startsCall = call.id !== undefined || fn.name !== undefined;
    const upstreamIndex =
      typeof call.index === 'number' ? call.index : startsCall ? this.#toolCount : Math.max(0, this.#toolCount - 1);
    const key = `tool:${upstreamIndex}`;
    let index = this.#blocks.indexOf(key);
    if (index === undefined) {
      this.#toolCount++;
      const id = str(call.id) ?? `call_${this.#id}_${upstreamIndex}`;
      index = this.#blocks.open(key, { type: 'tool_call', id, name: str(fn.name) ?? '' }, out);
    }
    const args = argumentsText(fn.arguments);
    if (args.length > 0) out.push({ type: 'tool_args_delta', index, json: args });
  }

  #finish(out: CanonicalStreamEvent[]): void {
    this.#blocks.close(out);
    if (!this.#started) {
      this.#started = true;
      out.push({ type: 'start', id: this.#id, upstreamModel: '' });
    }
    const stopReason: StopReason = chatStopReason(this.#finishReason, this.#blocks.sawTool);
    out.push({ type: 'finish', stopReason, stopSequence: null });
    this.#done = true;
  }
}
