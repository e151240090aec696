/**
 * Canonical stream events -> the messages event family, each as `event: <name>\ndata: <json>\n\n`:
 *   message_start                  with the upstream's own start usage when it sends one (Anthropic, Bedrock),
 *                                  else the gateway's exact prompt count (`ctx.promptTokens`)
 *   content_block_start / _delta (text_delta, thinking_delta, signature_delta, input_json_delta) / _stop
 *   message_delta                  stop_reason, stop_sequence and the final usage, written by `end()`
 *   message_stop
 * message_start is not held back for usage: an OpenAI-format upstream reports usage only at the end, and
 * waiting would cost the client its first byte. The final message_delta carries every usage counter
 * (input, cache read/write, output); the SDK's accumulator takes them from there.
 */
import type { TokenUsage } from '../../billing/price.js';
import { ZERO_USAGE } from '../../billing/price.js';
import type { CanonicalStreamEvent, JsonObject, StopReason } from '../../canonical/types.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { EncodeContext, StreamEncoder } from '../format.js';
import { messageId, messagesStopReason, messagesUsage } from './encode.js';
import { toMessagesError } from './error.js';

export class MessagesStreamEncoder implements StreamEncoder {
  readonly #ctx: EncodeContext;
  #started = false;
  #sawStart = false;
  /** Canonical block index -> messages content index (numbered in order of appearance from 0). */
  readonly #index = new Map<number, number>();
  #usage: TokenUsage | null = null;
  #stopReason: StopReason = 'stop';
  #stopSequence: string | null = null;

  constructor(ctx: EncodeContext) {
    this.#ctx = ctx;
  }

  push(ev: CanonicalStreamEvent): string {
    switch (ev.type) {
      case 'start':
        // Held until the next event unless usage is known: an upstream that knows the input count reports
        // it right after start (Anthropic's own message_start).
        this.#sawStart = true;
        return this.#usage ? this.#begin() : '';
      case 'block_start': {
        const index = this.#index.size;
        this.#index.set(ev.index, index);
        const b = ev.block;
        const block: JsonObject =
          b.type === 'text'
            ? { type: 'text', text: '' }
            : b.type === 'thinking'
              ? { type: 'thinking', thinking: '', signature: '' }
              : { type: 'tool_use', id: b.id, name: b.name, input: {} };
        return this.#begin() + event('content_block_start', { type: 'content_block_start', index, content_block: block });
      }
      case 'text_delta':
        return this.#delta(ev.index, '{"type":"text_delta","text":', ev.text);
      case 'thinking_delta':
        return this.#delta(ev.index, '{"type":"thinking_delta","thinking":', ev.text);
      case 'signature_delta':
        return this.#delta(ev.index, '{"type":"signature_delta","signature":', ev.signature);
      case 'tool_args_delta':
        return this.#delta(ev.index, '{"type":"input_json_delta","partial_json":', ev.json);
      case 'block_stop': {
        const index = this.#index.get(ev.index);
        return index === undefined ? '' : event('content_block_stop', { type: 'content_block_stop', index });
      }
      case 'usage':
        this.#usage = ev.usage;
        return this.#sawStart ? this.#begin() : '';
      case 'finish':
        this.#stopReason = ev.stopReason;
        this.#stopSequence = ev.stopSequence;
        return '';
    }
  }

  end(): string {
    const stopReason = messagesStopReason(this.#stopReason);
    const delta = { stop_reason: stopReason, stop_sequence: stopReason === 'stop_sequence' ? this.#stopSequence : null };
    return (
      this.#begin() +
      event('message_delta', { type: 'message_delta', delta, usage: messagesUsage(this.#usage ?? ZERO_USAGE) }) +
      event('message_stop', { type: 'message_stop' })
    );
  }

  /** An `error` event in the messages envelope (`{type: 'error', error}`) holding the contract's error object. */
  error(err: GatewayError): string {
    return event('error', toMessagesError(err));
  }

  #begin(): string {
    if (this.#started) return '';
    this.#started = true;
    const message = {
      id: messageId(this.#ctx),
      type: 'message',
      role: 'assistant',
      model: this.#ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // Output is reported once, cumulatively, in message_delta: a client that adds the two (LangChain) must
      // not count the upstream's provisional first token twice.
      usage: messagesUsage({ ...(this.#usage ?? { ...ZERO_USAGE, inputTokens: this.#ctx.promptTokens ?? 0 }), outputTokens: 0, reasoningTokens: 0 }),
    };
    return event('message_start', { type: 'message_start', message });
  }

  /**
   * `content_block_delta` rendered as a string, only the text JSON-escaped: deltas are the per-token hot path.
   * `head` opens the delta object up to its text field; the bytes equal JSON.stringify of the event object.
   */
  #delta(canonicalIndex: number, head: string, text: string): string {
    const index = this.#index.get(canonicalIndex);
    if (index === undefined || text === '') return '';
    return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${head}${JSON.stringify(text)}}}\n\n`;
  }
}

function event(name: string, data: JsonObject): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
