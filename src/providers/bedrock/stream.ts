/**
 * ConverseStream (binary event stream) -> canonical stream events. Frames carry `:event-type`
 * messageStart, contentBlockStart (tool use only), contentBlockDelta (text, toolUse.input,
 * reasoningContent text/signature), contentBlockStop, messageStop (stopReason), metadata (usage). Text and
 * reasoning blocks have no start frame: their first delta starts them. `finish` is emitted after the
 * metadata frame, so the final usage precedes it as it does for every other provider.
 */
import { randomUUID } from 'node:crypto';
import type { CanonicalStreamEvent, StopReason } from '../../canonical/types.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { StreamDecoder } from '../adapter.js';
import { num } from '../usage-tap.js';
import { mapBedrockStreamException } from './errors.js';
import { EventStreamDecoder, EventStreamError, type EventMessage } from './event-stream.js';
import { fromBedrockUsage, isRecord, stopReasonOf, stopSequenceOf, str } from './response.js';

function broken(why: string): GatewayError {
  return new GatewayError('upstream_error', { message: `The provider stream was unreadable (${why}).` });
}

export class BedrockStreamDecoder implements StreamDecoder {
  readonly #frames = new EventStreamDecoder();
  /** Bedrock contentBlockIndex -> canonical index. */
  readonly #blocks = new Map<number, number>();
  #nextIndex = 0;
  #started = false;
  #stop: { reason: StopReason; sequence: string | null } | null = null;
  #finished = false;

  push(chunk: Buffer): CanonicalStreamEvent[] {
    let messages: EventMessage[];
    try {
      messages = this.#frames.push(chunk);
    } catch (e) {
      throw broken(e instanceof EventStreamError ? e.message : 'bad frame');
    }
    const out: CanonicalStreamEvent[] = [];
    for (const m of messages) this.#message(m, out);
    return out;
  }

  end(): CanonicalStreamEvent[] {
    if (this.#frames.pending) throw broken('it ended inside a frame');
    if (this.#stop === null) throw broken('it ended before messageStop');
    const out: CanonicalStreamEvent[] = [];
    if (!this.#finished) this.#finish(out);
    return out;
  }

  #message(m: EventMessage, out: CanonicalStreamEvent[]): void {
    const kind = m.headers[':message-type'];
    const payload = m.payload.toString('utf8');
    if (kind === 'exception') throw mapBedrockStreamException(String(m.headers[':exception-type'] ?? ''), payload);
    if (kind === 'error') throw broken(`error frame ${String(m.headers[':error-code'] ?? '')}`.trim());
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      throw broken('a frame payload is not JSON');
    }
    if (!isRecord(body)) throw broken('a frame payload is not an object');
    if (this.#finished) return;
    switch (m.headers[':event-type']) {
      case 'messageStart':
        this.#started = true;
        out.push({ type: 'start', id: `bedrock-${randomUUID()}`, upstreamModel: '' });
        return;
      case 'contentBlockStart':
        return this.#blockStart(body, out);
      case 'contentBlockDelta':
        return this.#delta(body, out);
      case 'contentBlockStop': {
        const index = this.#blocks.get(num(body.contentBlockIndex));
        if (index !== undefined) out.push({ type: 'block_stop', index });
        return;
      }
      case 'messageStop':
        this.#stop = { reason: stopReasonOf(body.stopReason), sequence: stopSequenceOf(body.additionalModelResponseFields) };
        return;
      case 'metadata':
        if (isRecord(body.usage)) out.push({ type: 'usage', usage: fromBedrockUsage(body.usage) });
        if (this.#stop !== null) this.#finish(out);
        return;
      default:
        return; // future event types
    }
  }

  #open(bedrockIndex: number, block: Extract<CanonicalStreamEvent, { type: 'block_start' }>['block'], out: CanonicalStreamEvent[]): number {
    if (!this.#started) throw broken('content before messageStart');
    const index = this.#nextIndex++;
    this.#blocks.set(bedrockIndex, index);
    out.push({ type: 'block_start', index, block });
    return index;
  }

  #blockStart(body: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    const start = isRecord(body.start) ? body.start : {};
    if (!isRecord(start.toolUse)) return; // other start kinds (tool results, images) have no canonical form
    this.#open(num(body.contentBlockIndex), { type: 'tool_call', id: str(start.toolUse.toolUseId), name: str(start.toolUse.name) }, out);
  }

  #delta(body: Record<string, unknown>, out: CanonicalStreamEvent[]): void {
    const at = num(body.contentBlockIndex);
    const delta = isRecord(body.delta) ? body.delta : {};
    let index = this.#blocks.get(at);
    if (typeof delta.text === 'string') {
      index ??= this.#open(at, { type: 'text' }, out);
      if (delta.text) out.push({ type: 'text_delta', index, text: delta.text });
    } else if (isRecord(delta.toolUse)) {
      if (index === undefined) throw broken('tool input for a block that never started');
      if (str(delta.toolUse.input)) out.push({ type: 'tool_args_delta', index, json: str(delta.toolUse.input) });
    } else if (isRecord(delta.reasoningContent)) {
      const r = delta.reasoningContent;
      index ??= this.#open(at, { type: 'thinking' }, out);
      if (str(r.text)) out.push({ type: 'thinking_delta', index, text: str(r.text) });
      if (typeof r.signature === 'string') out.push({ type: 'signature_delta', index, signature: r.signature });
    }
  }

  #finish(out: CanonicalStreamEvent[]): void {
    this.#finished = true;
    const stop = this.#stop ?? { reason: 'stop' as const, sequence: null };
    out.push({ type: 'finish', stopReason: stop.reason, stopSequence: stop.reason === 'stop_sequence' ? stop.sequence : null });
  }
}
