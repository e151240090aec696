/**
 * Anthropic Messages SSE stream -> canonical stream events (API reference, "Streaming Messages"):
 * message_start (id, model, input usage) -> content_block_start / content_block_delta (text_delta,
 * input_json_delta, thinking_delta, signature_delta) / content_block_stop -> message_delta (stop_reason,
 * cumulative usage) -> message_stop. `ping` is ignored; an `error` event throws the mapped GatewayError.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalStreamEvent, StopReason } from '../../canonical/types.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { StreamDecoder } from '../adapter.js';
import { num } from '../usage-tap.js';
import { mapAnthropicStreamError } from './errors.js';
import { fromAnthropicUsage, isRecord, stopReasonOf, str } from './response.js';
import { SseReader } from '../sse.js';

type Block = Extract<CanonicalStreamEvent, { type: 'block_start' }>['block'];

function blockOf(cb: Record<string, unknown>): Block | null {
  if (cb.type === 'text') return { type: 'text' };
  if (cb.type === 'thinking') return { type: 'thinking' };
  if (cb.type === 'tool_use') return { type: 'tool_call', id: str(cb.id), name: str(cb.name) };
  // redacted_thinking and server-side tool blocks have no canonical stream form.
  return null;
}

function broken(why: string): GatewayError {
  return new GatewayError('upstream_error', { message: `The provider stream was unreadable (${why}).` });
}

export class AnthropicStreamDecoder implements StreamDecoder {
  readonly #sse = new SseReader();
  /** Anthropic block index -> canonical index; null for a block not surfaced. */
  readonly #blocks = new Map<number, number | null>();
  #nextIndex = 0;
  #usage: TokenUsage | null = null;
  #stopReason: StopReason = 'stop';
  #stopSequence: string | null = null;
  #started = false;
  #finished = false;

  push(chunk: Buffer): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    for (const ev of this.#sse.push(chunk)) this.#event(ev.event, ev.data, out);
    return out;
  }

  end(): CanonicalStreamEvent[] {
    const out: CanonicalStreamEvent[] = [];
    const { events, truncated } = this.#sse.end();
    for (const ev of events) this.#event(ev.event, ev.data, out);
    if (!this.#finished || truncated) throw broken('it ended before message_stop');
    return out;
  }

  #event(name: string | null, data: string, out: CanonicalStreamEvent[]): void {
    if (name === 'error') throw mapAnthropicStreamError(data);
    if (name === 'ping' || data.length === 0) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw broken(`event ${name ?? '?'} is not JSON`);
    }
    if (!isRecord(parsed)) throw broken('an event is not an object');
    if (this.#finished) return;
    switch (parsed.type) {
      case 'message_start':
        return this.#messageStart(parsed, out);
      case 'content_block_start':
        return this.#blockStart(parsed, out);
      case 'content_block_delta':
        return this.#delta(parsed, out);
      case 'content_block_stop': {
        const index = this.#blocks.get(num(parsed.index));
        if (index !== undefined && index !== null) out.push({ type: 'block_stop', index });
        return;
      }
      case 'message_delta':
        return this.#messageDelta(parsed, out);
      case 'message_stop':
        this.#finished = true;
        out.push({ type: 'finish', stopReason: this.#stopReason, stopSequence: this.#stopSequence });
        return;
      case 'error':
        throw mapAnthropicStreamError(data);
      default:
        return; // ping and future event types
    }
  }

  #messageStart(ev: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    const message = isRecord(ev.message) ? ev.message : {};
    this.#started = true;
    out.push({ type: 'start', id: str(message.id), upstreamModel: str(message.model) });
    if (isRecord(message.usage)) {
      this.#usage = fromAnthropicUsage(message.usage);
      out.push({ type: 'usage', usage: { ...this.#usage } });
    }
  }

  #blockStart(ev: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    if (!this.#started) throw broken('content before message_start');
    const cb = isRecord(ev.content_block) ? ev.content_block : {};
    const block = blockOf(cb);
    if (block === null) {
      this.#blocks.set(num(ev.index), null);
      return;
    }
    const index = this.#nextIndex++;
    this.#blocks.set(num(ev.index), index);
    out.push({ type: 'block_start', index, block });
    // A start block normally carries empty text; forward any initial content all the same.
    if (block.type === 'text' && str(cb.text)) out.push({ type: 'text_delta', index, text: str(cb.text) });
    if (block.type === 'thinking' && str(cb.thinking)) out.push({ type: 'thinking_delta', index, text: str(cb.thinking) });
  }

  #delta(ev: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    const index = this.#blocks.get(num(ev.index));
    if (index === undefined) throw broken('a delta for a block that never started');
    const delta = isRecord(ev.delta) ? ev.delta : {};
    if (index === null) return;
    switch (delta.type) {
      case 'text_delta':
        if (str(delta.text)) out.push({ type: 'text_delta', index, text: str(delta.text) });
        return;
      case 'input_json_delta':
        if (str(delta.partial_json)) out.push({ type: 'tool_args_delta', index, json: str(delta.partial_json) });
        return;
      case 'thinking_delta':
        if (str(delta.thinking)) out.push({ type: 'thinking_delta', index, text: str(delta.thinking) });
        return;
      case 'signature_delta':
        out.push({ type: 'signature_delta', index, signature: str(delta.signature) });
        return;
      default:
        return; // citations_delta and future delta types
    }
  }

  #messageDelta(ev: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    const delta = isRecord(ev.delta) ? ev.delta : {};
    if (delta.stop_reason !== undefined && delta.stop_reason !== null) this.#stopReason = stopReasonOf(delta.stop_reason);
    if (typeof delta.stop_sequence === 'string') this.#stopSequence = delta.stop_sequence;
    const u = ev.usage;
    if (!isRecord(u)) return;
    // message_delta usage is cumulative; fields it omits keep their message_start values.
    const next = fromAnthropicUsage(u);
    const prev = this.#usage ?? next;
    const has = (field: string): boolean => typeof u[field] === 'number';
    this.#usage = {
      inputTokens: has('input_tokens') ? next.inputTokens : prev.inputTokens,
      outputTokens: next.outputTokens,
      cacheReadTokens: has('cache_read_input_tokens') ? next.cacheReadTokens : prev.cacheReadTokens,
      cacheWriteTokens: has('cache_creation_input_tokens') ? next.cacheWriteTokens : prev.cacheWriteTokens,
      reasoningTokens: isRecord(u.output_tokens_details) ? next.reasoningTokens : prev.reasoningTokens,
    };
    out.push({ type: 'usage', usage: { ...this.#usage } });
  }
}
