/**
 * Canonical stream events -> legacy `text_completion` SSE chunks: `choices[0].text` deltas, a last choice
 * chunk with the finish reason, a usage chunk (`choices: []`) when the client asked for one, `data: [DONE]`.
 * With echo the prompt is the first chunk's text.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalStreamEvent } from '../../canonical/types.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import { SSE_DONE } from '../chat-completions/encode-stream.js';
import { openaiUsage } from '../chat-completions/usage.js';
import type { StreamEncoder } from '../format.js';
import { completionFinishReason, completionId, type CompletionsEncodeContext } from './encode.js';

export class CompletionsStreamEncoder implements StreamEncoder {
  readonly #head: string;
  readonly #tail: string;
  readonly #streamUsage: boolean;
  /** Echoed prompt still to send (single-prompt streams only). */
  #echo: string | null;
  #usage: TokenUsage | null = null;

  constructor(ctx: CompletionsEncodeContext) {
    const head = { id: completionId(ctx), object: 'text_completion', created: ctx.created, model: ctx.model };
    this.#head = `data: ${JSON.stringify(head).slice(0, -1)},"choices":`;
    this.#streamUsage = ctx.streamUsage;
    this.#tail = ctx.streamUsage ? ',"usage":null}\n\n' : '}\n\n';
    this.#echo = ctx.echoPrompts?.[0] || null;
  }

  push(ev: CanonicalStreamEvent): string {
    switch (ev.type) {
      case 'start':
        return this.#echoChunk();
      case 'text_delta':
        return ev.text === '' ? '' : this.#echoChunk() + this.#choice(ev.text, 'null');
      case 'usage':
        this.#usage = ev.usage;
        return '';
      case 'finish':
        return this.#echoChunk() + this.#choice('', `"${completionFinishReason(ev.stopReason)}"`);
      default:
        return '';
    }
  }

  end(): string {
    const usage = this.#streamUsage && this.#usage ? `${this.#head}[],"usage":${JSON.stringify(openaiUsage(this.#usage))}}\n\n` : '';
    return usage + SSE_DONE;
  }

  error(err: GatewayError): string {
    return `data: ${JSON.stringify(err.toBody())}\n\n`;
  }

  #echoChunk(): string {
    if (this.#echo === null) return '';
    const text = this.#echo;
    this.#echo = null;
    return this.#choice(text, 'null');
  }

  #choice(text: string, finishReason: string): string {
    return `${this.#head}[{"text":${JSON.stringify(text)},"index":0,"logprobs":null,"finish_reason":${finishReason}}]${this.#tail}`;
  }
}
