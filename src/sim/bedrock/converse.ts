/**
 * POST {prefix}/model/{modelId}/converse and /converse-stream. The stream is an
 * application/vnd.amazon.eventstream body: messageStart; per block contentBlockStart (tool use only),
 * contentBlockDelta (reasoningContent text then signature, text, toolUse.input), contentBlockStop;
 * messageStop; metadata (usage, metrics). Like the real service, every event payload carries a `p` field
 * of padding that hides the content length.
 */
import { randomUUID } from 'node:crypto';
import { encodeEventMessage } from '../../providers/bedrock/event-stream.js';
import type { SimRequest } from '../dialect.js';
import { sendJson, sleep } from '../http.js';
import { PacedStream } from '../stream.js';
import { planConverse, type ConversePlan } from './answer.js';
import { validation } from './errors.js';
import { parseConverseRequest, type ConverseRequest } from './request.js';
import { verifySigV4 } from './sigv4-verify.js';

const PAD = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function usageOf(plan: ConversePlan): Record<string, number> {
  const { cacheReadInputTokens, cacheWriteInputTokens, ...base } = plan.usage;
  // The cache fields appear when prompt caching took part in the call.
  return cacheReadInputTokens + cacheWriteInputTokens > 0 ? { ...base, cacheReadInputTokens, cacheWriteInputTokens } : base;
}

function responseFields(req: ConverseRequest, plan: ConversePlan): Record<string, unknown> {
  return req.wantsStopSequence ? { additionalModelResponseFields: { stop_sequence: plan.stopSequence } } : {};
}

function outputContent(plan: ConversePlan): Record<string, unknown>[] {
  const content: Record<string, unknown>[] = [];
  if (plan.reasoning) content.push({ reasoningContent: { reasoningText: { text: plan.reasoning.words.join(' '), signature: plan.reasoning.signature } } });
  if (plan.toolUse) {
    const { toolUseId, name, input } = plan.toolUse;
    content.push({ toolUse: { toolUseId, name, input: JSON.parse(input) as unknown } });
  } else {
    content.push({ text: plan.words.join(' ') });
  }
  return content;
}

class FrameWriter {
  readonly #stream: PacedStream;
  #n = 0;

  constructor(stream: PacedStream) {
    this.#stream = stream;
  }

  #bytes(type: string, body: Record<string, unknown>): Buffer {
    const p = PAD.slice(0, 1 + (this.#n++ * 7) % PAD.length);
    const headers = { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' };
    return encodeEventMessage(headers, JSON.stringify({ ...body, p }));
  }

  frame(type: string, body: Record<string, unknown>): Promise<boolean> {
    return this.#stream.frame(this.#bytes(type, body));
  }

  token(type: string, body: Record<string, unknown>): Promise<boolean> {
    return this.#stream.token(this.#bytes(type, body));
  }
}

async function writeStream(w: FrameWriter, req: ConverseRequest, plan: ConversePlan, started: number): Promise<boolean> {
  if (!(await w.frame('messageStart', { role: 'assistant' }))) return false;
  let index = 0;
  const spaced = (list: string[]): string[] => list.map((word, i) => (i === 0 ? word : ` ${word}`));
  if (plan.reasoning) {
    for (const text of spaced(plan.reasoning.words)) {
      if (!(await w.token('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text } } }))) return false;
    }
    const signature = { contentBlockIndex: index, delta: { reasoningContent: { signature: plan.reasoning.signature } } };
    if (!(await w.frame('contentBlockDelta', signature))) return false;
    if (!(await w.frame('contentBlockStop', { contentBlockIndex: index++ }))) return false;
  }
  if (plan.toolUse) {
    const { toolUseId, name, input } = plan.toolUse;
    if (!(await w.frame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } }))) return false;
    for (const piece of input.match(/[{}":,]+|[^{}":,]+/g) ?? [input]) {
      if (!(await w.token('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: piece } } }))) return false;
    }
  } else {
    for (const text of spaced(plan.words)) {
      if (!(await w.token('contentBlockDelta', { contentBlockIndex: index, delta: { text } }))) return false;
    }
  }
  if (!(await w.frame('contentBlockStop', { contentBlockIndex: index }))) return false;
  if (!(await w.frame('messageStop', { stopReason: plan.stopReason, ...responseFields(req, plan) }))) return false;
  return w.frame('metadata', { usage: usageOf(plan), metrics: { latencyMs: Date.now() - started } });
}

async function handle(request: SimRequest, stream: boolean): Promise<void> {
  const started = Date.now();
  const creds = request.config.sigv4;
  if (creds) {
    const refusal = await verifySigV4(request, creds, 'bedrock');
    if (refusal) return sendJson(request.res, refusal);
  }
  let modelId: string;
  try {
    modelId = decodeURIComponent(request.params.modelId ?? '');
  } catch {
    return sendJson(request.res, validation('The provided model identifier is invalid.'));
  }
  const parsed = parseConverseRequest(modelId, request.json);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const req = parsed.request;
  const plan = planConverse(req, request.controls);
  const headers = { 'x-amzn-RequestId': randomUUID() };
  if (stream) {
    const s = new PacedStream(request, { ...headers, 'content-type': 'application/vnd.amazon.eventstream' });
    if (await writeStream(new FrameWriter(s), req, plan, started)) s.end();
    return;
  }
  if (!(await sleep(request.config.msPerToken * plan.usage.outputTokens, request.signal))) return;
  const body = {
    output: { message: { role: 'assistant', content: outputContent(plan) } },
    stopReason: plan.stopReason,
    usage: usageOf(plan),
    metrics: { latencyMs: Date.now() - started },
    ...responseFields(req, plan),
  };
  sendJson(request.res, { status: 200, headers, body }, request.cut);
}

export const handleConverse = (request: SimRequest): Promise<void> => handle(request, false);
export const handleConverseStream = (request: SimRequest): Promise<void> => handle(request, true);
