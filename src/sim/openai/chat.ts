/**
 * POST /v1/chat/completions: the `chat.completion` object, or the `chat.completion.chunk` SSE stream
 * (first chunk carries the role, one chunk per token, a final chunk with finish_reason, then the usage
 * chunk with `choices: []` when `stream_options.include_usage`, then `data: [DONE]`).
 */
import { randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import { sendJson, sleep } from '../http.js';
import { PacedStream } from '../stream.js';
import type { AnswerPlan } from './answer.js';
import { planAnswer, usageOf } from './answer.js';
import { checkBearer } from './errors.js';
import type { ChatRequest } from './request.js';
import { parseChatRequest } from './request.js';

const SYSTEM_FINGERPRINT = 'fp_sim00001';

interface Envelope {
  id: string;
  created: number;
  model: string;
}

function responseHeaders(started: number): Record<string, string> {
  return {
    'x-request-id': `req_${randomBytes(16).toString('hex')}`,
    'openai-version': '2020-10-01',
    'openai-organization': 'org-sim',
    'openai-processing-ms': String(Date.now() - started),
  };
}

function completionObject(envelope: Envelope, plan: AnswerPlan): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.toolCall ? null : plan.words.join(' '),
    refusal: null,
    annotations: [],
  };
  if (plan.toolCall) {
    const { id, name, arguments: args } = plan.toolCall;
    message.tool_calls = [{ id, type: 'function', function: { name, arguments: args } }];
  }
  return {
    ...envelope,
    object: 'chat.completion',
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: usageOf(plan),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** Splits tool-call arguments the way the real stream does: a few short pieces, not one blob. */
export function argumentPieces(args: string): string[] {
  return args.match(/[{}":,]+|[^{}":,]+/g) ?? [args];
}

class ChunkWriter {
  readonly #stream: PacedStream;
  readonly #envelope: Envelope;
  readonly #includeUsage: boolean;

  constructor(stream: PacedStream, envelope: Envelope, includeUsage: boolean) {
    this.#stream = stream;
    this.#envelope = envelope;
    this.#includeUsage = includeUsage;
  }

  #data(choices: unknown[], usage: Record<string, unknown> | null): string {
    const chunk: Record<string, unknown> = {
      ...this.#envelope,
      object: 'chat.completion.chunk',
      service_tier: 'default',
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
    };
    // With include_usage every chunk carries `usage: null`, the last one the totals.
    if (this.#includeUsage) chunk.usage = usage;
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }

  delta(delta: Record<string, unknown>, finishReason: string | null = null): string {
    return this.#data([{ index: 0, delta, logprobs: null, finish_reason: finishReason }], null);
  }

  usage(plan: AnswerPlan): string {
    return this.#data([], usageOf(plan));
  }

  async write(plan: AnswerPlan): Promise<void> {
    const s = this.#stream;
    if (plan.toolCall) {
      const { id, name, arguments: args } = plan.toolCall;
      const head = { index: 0, id, type: 'function', function: { name, arguments: '' } };
      if (!(await s.frame(this.delta({ role: 'assistant', content: null, tool_calls: [head], refusal: null })))) return;
      for (const piece of argumentPieces(args)) {
        if (!(await s.token(this.delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] })))) return;
      }
    } else {
      if (!(await s.frame(this.delta({ role: 'assistant', content: '', refusal: null })))) return;
      for (const [i, word] of plan.words.entries()) {
        if (!(await s.token(this.delta({ content: i === 0 ? word : ` ${word}` })))) return;
      }
    }
    if (!(await s.frame(this.delta({}, plan.finishReason)))) return;
    if (this.#includeUsage && !(await s.frame(this.usage(plan)))) return;
    if (!(await s.frame('data: [DONE]\n\n'))) return;
    s.end();
  }
}

async function respond(request: SimRequest, chat: ChatRequest, started: number): Promise<void> {
  const plan = planAnswer(chat, request.controls);
  const envelope: Envelope = {
    id: `chatcmpl-${randomBytes(15).toString('base64url')}`,
    created: Math.floor(Date.now() / 1000),
    model: chat.model,
  };
  if (chat.stream) {
    const stream = new PacedStream(request, {
      ...responseHeaders(started),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    await new ChunkWriter(stream, envelope, chat.includeUsage).write(plan);
    return;
  }
  // A non-stream answer arrives when the whole generation would have finished.
  if (!(await sleep(request.config.msPerToken * plan.completionTokens, request.signal))) return;
  sendJson(request.res, { status: 200, headers: responseHeaders(started), body: completionObject(envelope, plan) }, request.cut);
}

export async function handleChatCompletions(request: SimRequest): Promise<void> {
  const started = Date.now();
  const refusal = checkBearer(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseChatRequest(request.json, request.body);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  await respond(request, parsed.request, started);
}
