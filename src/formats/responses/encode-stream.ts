/**
 * Canonical stream events -> the Responses event family, each as `event: <type>\ndata: <json>\n\n` with a
 * `sequence_number` counting from 0:
 *   response.created, response.in_progress                         on `start`
 *   response.output_item.added (+ response.content_part.added)     on a text / tool-call block start
 *   response.output_text.delta | response.function_call_arguments.delta
 *   response.output_text.done, response.content_part.done | response.function_call_arguments.done,
 *   response.output_item.done                                      on the block stop
 *   response.completed | response.incomplete | response.failed     at the end, with the whole response
 * The terminal event is written by `end()`, not on `finish`: usage may arrive after the finish reason.
 */
import type { TokenUsage } from '../../billing/price.js';
import type { CanonicalStreamEvent, JsonObject, StopReason } from '../../canonical/types.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import type { EncodeContext, StreamEncoder } from '../format.js';
import {
  callItemId,
  functionCallItem,
  itemStatus,
  messageItem,
  messageItemId,
  outputText,
  responseObject,
  responseOutcome,
} from './encode.js';

interface TextBlock {
  kind: 'text';
  outputIndex: number;
  itemId: string;
  /** `,"item_id":...,"delta":` rendered once: deltas are the per-token hot path. */
  deltaAt: string;
  text: string;
}

interface CallBlock {
  kind: 'call';
  outputIndex: number;
  itemId: string;
  deltaAt: string;
  callId: string;
  name: string;
  args: string;
}

const TEXT_DELTA = 'response.output_text.delta';
const ARGS_DELTA = 'response.function_call_arguments.delta';

export class ResponsesStreamEncoder implements StreamEncoder {
  readonly #ctx: EncodeContext;
  #seq = 0;
  #started = false;
  /** Open blocks by canonical index (thinking blocks are not tracked: they have no output item here). */
  readonly #open = new Map<number, TextBlock | CallBlock>();
  /** Finished output items by output index, for the terminal event's `response.output`. */
  readonly #items: JsonObject[] = [];
  #nextOutput = 0;
  #usage: TokenUsage | null = null;
  #stopReason: StopReason | null = null;

  constructor(ctx: EncodeContext) {
    this.#ctx = ctx;
  }

  push(ev: CanonicalStreamEvent): string {
    switch (ev.type) {
      case 'start':
        return this.#begin();
      case 'block_start':
        return this.#begin() + this.#blockStart(ev.index, ev.block);
      case 'text_delta': {
        const b = this.#open.get(ev.index);
        if (b?.kind !== 'text' || ev.text === '') return '';
        b.text += ev.text;
        return this.#delta(TEXT_DELTA, b.deltaAt, ev.text, ',"logprobs":[]}');
      }
      case 'tool_args_delta': {
        const b = this.#open.get(ev.index);
        if (b?.kind !== 'call' || ev.json === '') return '';
        b.args += ev.json;
        return this.#delta(ARGS_DELTA, b.deltaAt, ev.json, '}');
      }
      case 'block_stop':
        return this.#blockStop(ev.index);
      case 'usage':
        this.#usage = ev.usage;
        return '';
      case 'finish':
        this.#stopReason = ev.stopReason;
        return '';
      default:
        return '';
    }
  }

  /** Closes blocks left open, then the terminal event carrying the whole response with usage. */
  end(): string {
    let out = this.#begin();
    for (const index of [...this.#open.keys()]) out += this.#blockStop(index);
    const outcome = responseOutcome(this.#stopReason);
    const type = outcome.status === 'completed' ? 'response.completed' : `response.${outcome.status}`;
    // Items closed before the finish reason arrived said `completed`; a cut-short answer's items are incomplete.
    const status = itemStatus(outcome.status);
    const output = this.#items.filter((x) => x !== undefined).map((x) => ({ ...x, status }));
    const response = responseObject(this.#ctx, outcome.status, outcome, output, this.#usage);
    if (outcome.status !== 'failed') this.#ctx.onResponse?.(response);
    return out + this.#event(type, { response });
  }

  /** The Responses `error` event (the OpenAI SDK raises it as an APIError). */
  error(err: GatewayError): string {
    return this.#event('error', { code: err.code, message: err.message, param: err.param ?? null });
  }

  #begin(): string {
    if (this.#started) return '';
    this.#started = true;
    const response = responseObject(this.#ctx, 'in_progress', { incompleteDetails: null, error: null }, [], null);
    return this.#event('response.created', { response }) + this.#event('response.in_progress', { response });
  }

  #blockStart(index: number, block: Extract<CanonicalStreamEvent, { type: 'block_start' }>['block']): string {
    if (block.type === 'thinking') return '';
    const outputIndex = this.#nextOutput++;
    if (block.type === 'text') {
      const itemId = messageItemId(this.#ctx, outputIndex);
      const deltaAt = `,"item_id":${JSON.stringify(itemId)},"output_index":${outputIndex},"content_index":0,"delta":`;
      this.#open.set(index, { kind: 'text', outputIndex, itemId, deltaAt, text: '' });
      return (
        this.#event('response.output_item.added', { output_index: outputIndex, item: messageItem(itemId, 'in_progress', []) }) +
        this.#event('response.content_part.added', { item_id: itemId, output_index: outputIndex, content_index: 0, part: outputText('') })
      );
    }
    const itemId = callItemId(this.#ctx, outputIndex);
    const deltaAt = `,"item_id":${JSON.stringify(itemId)},"output_index":${outputIndex},"delta":`;
    this.#open.set(index, { kind: 'call', outputIndex, itemId, deltaAt, callId: block.id, name: block.name, args: '' });
    const item = functionCallItem(itemId, block.id, block.name, '', 'in_progress');
    return this.#event('response.output_item.added', { output_index: outputIndex, item });
  }

  #blockStop(index: number): string {
    const b = this.#open.get(index);
    if (b === undefined) return '';
    this.#open.delete(index);
    const status = itemStatus(responseOutcome(this.#stopReason).status);
    let item: JsonObject;
    let out: string;
    if (b.kind === 'text') {
      const part = outputText(b.text);
      item = messageItem(b.itemId, status, [part]);
      out =
        this.#event('response.output_text.done', { item_id: b.itemId, output_index: b.outputIndex, content_index: 0, text: b.text, logprobs: [] }) +
        this.#event('response.content_part.done', { item_id: b.itemId, output_index: b.outputIndex, content_index: 0, part });
    } else {
      item = functionCallItem(b.itemId, b.callId, b.name, b.args, status);
      out = this.#event('response.function_call_arguments.done', { item_id: b.itemId, output_index: b.outputIndex, name: b.name, arguments: b.args });
    }
    this.#items[b.outputIndex] = item;
    return out + this.#event('response.output_item.done', { output_index: b.outputIndex, item });
  }

  /** A delta event rendered from pre-built parts; the same bytes `#event` would give. */
  #delta(type: string, at: string, delta: string, tail: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.#seq++}${at}${JSON.stringify(delta)}${tail}\n\n`;
  }

  #event(type: string, fields: JsonObject): string {
    const data = JSON.stringify({ type, sequence_number: this.#seq++, ...fields });
    return `event: ${type}\ndata: ${data}\n\n`;
  }
}
