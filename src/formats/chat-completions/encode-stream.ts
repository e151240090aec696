/**
 * Canonical stream events -> `chat.completion.chunk` SSE (contract: POST /v1/chat/completions, streaming).
 * The chunk shapes follow what the OpenAI upstream sends on the byte fast path, so a client sees the same
 * stream whether or not the call crossed formats: the first chunk carries `role`, a tool call opens with its
 * id, type and name and then streams `arguments`, the finish reason comes in a last choice chunk with an empty
 * delta, the usage chunk (`choices: []`) only when the client asked for it, and `data: [DONE]` closes.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalStreamEvent } from '../../canonical/types.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { EncodeContext, StreamEncoder } from '../format.js';
import { chatCompletionId, chatFinishReason } from './encode.js';
import { openaiUsage } from './usage.js';

export const SSE_DONE = 'data: [DONE]\n\n';

export class ChatStreamEncoder implements StreamEncoder {
  /** `data: {"id":...,"object":"chat.completion.chunk","created":...,"model":...,"choices":` rendered once. */
  readonly #head: string;
  /** Chunks carry `"usage":null` when the client asked for a usage chunk, as OpenAI's do. */
  readonly #tail: string;
  readonly #streamUsage: boolean;
  #started = false;
  /** Canonical block index -> position in `tool_calls` (chat numbers tool calls alone, from 0). */
  readonly #toolIndex = new Map<number, number>();
  #usage: TokenUsage | null = null;

  constructor(ctx: EncodeContext) {
    const head = { id: chatCompletionId(ctx), object: 'chat.completion.chunk', created: ctx.created, model: ctx.model };
    this.#head = `data: ${JSON.stringify(head).slice(0, -1)},"choices":`;
    this.#streamUsage = ctx.streamUsage;
    this.#tail = ctx.streamUsage ? ',"usage":null}\n\n' : '}\n\n';
  }

  push(ev: CanonicalStreamEvent): string {
    switch (ev.type) {
      case 'start':
        return this.#open();
      case 'block_start': {
        if (ev.block.type !== 'tool_call') return this.#open();
        const index = this.#toolIndex.size;
        this.#toolIndex.set(ev.index, index);
        const call = { index, id: ev.block.id, type: 'function', function: { name: ev.block.name, arguments: '' } };
        return this.#open() + this.#choice(`{"tool_calls":[${JSON.stringify(call)}]}`, 'null');
      }
      case 'text_delta':
        return ev.text === '' ? '' : this.#open() + this.#choice(`{"content":${JSON.stringify(ev.text)}}`, 'null');
      case 'tool_args_delta': {
        const index = this.#toolIndex.get(ev.index);
        if (index === undefined || ev.json === '') return '';
        return this.#choice(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(ev.json)}}}]}`, 'null');
      }
      case 'usage':
        this.#usage = ev.usage;
        return '';
      case 'finish':
        return this.#open() + this.#choice('{}', `"${chatFinishReason(ev.stopReason)}"`);
      default:
        // Thinking has no chat field; block stops need no bytes.
        return '';
    }
  }

  /** The usage chunk (when asked for and known; usage may follow the finish chunk), then `[DONE]`. */
  end(): string {
    const usage = this.#streamUsage && this.#usage ? `${this.#head}[],"usage":${JSON.stringify(openaiUsage(this.#usage))}}\n\n` : '';
    return usage + SSE_DONE;
  }

  /** The contract's error object as a data event; the OpenAI SDK raises it as an APIError. No `[DONE]`. */
  error(err: GatewayError): string {
    return `data: ${JSON.stringify(err.toBody())}\n\n`;
  }

  #open(): string {
    if (this.#started) return '';
    this.#started = true;
    return this.#choice('{"role":"assistant","content":""}', 'null');
  }

  #choice(delta: string, finishReason: string): string {
    return `${this.#head}[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finishReason}}]${this.#tail}`;
  }
}
