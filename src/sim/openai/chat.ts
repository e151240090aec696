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

function messageOf(plan: AnswerPlan): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.toolCall ? null : plan.words.join(' '),
    refusal: null,
    annotations: [],
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map(({ id, name, arguments: args }) => ({ id, type: 'function', function: { name, arguments: args } }));
  }
  return message;
}

/** The usage of several choices: one prompt, every choice's completion tokens. */
export function choicesUsage(plans: readonly AnswerPlan[]): Record<string, unknown> {
  const first = plans[0]!;
  return usageOf({ ...first, completionTokens: plans.reduce((sum, p) => sum + p.completionTokens, 0) });
}

/**
 * Simulated token log probabilities (`logprobs: true`): one entry per answer word with its bytes, and
 * `top` alternatives (the sampled token first), as the real chat API shapes `choices[].logprobs.content`.
 */
export function tokenLogprobs(tokens: readonly string[], top: number): Record<string, unknown>[] {
  return tokens.map((token, i) => {
    const logprob = -Math.round(((i % 7) + 1) * 1000 * 0.0123) / 1000;
    const alt = (k: number) => ({ token: k === 0 ? token : `${token}${k}`, logprob: logprob - k, bytes: [...Buffer.from(k === 0 ? token : `${token}${k}`)] });
    return { token, logprob, bytes: [...Buffer.from(token)], top_logprobs: Array.from({ length: top }, (_, k) => alt(k)) };
  });
}

/** The answer's tokens as streamed: the first word alone, then each following word with its leading space. */
export const answerTokens = (plan: AnswerPlan): string[] => plan.words.map((w, i) => (i === 0 ? w : ` ${w}`));

function completionObject(envelope: Envelope, plans: readonly AnswerPlan[], chat: ChatRequest): Record<string, unknown> {
  return {
    ...envelope,
    object: 'chat.completion',
    choices: plans.map((plan, index) => ({
      index,
      message: messageOf(plan),
      logprobs: chat.logprobs ? { content: tokenLogprobs(answerTokens(plan), chat.topLogprobs ?? 0), refusal: null } : null,
      finish_reason: plan.finishReason,
    })),
    usage: choicesUsage(plans),
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
  readonly #chat: ChatRequest;

  constructor(stream: PacedStream, envelope: Envelope, chat: ChatRequest) {
    this.#stream = stream;
    this.#envelope = envelope;
    this.#chat = chat;
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
    if (this.#chat.includeUsage) chunk.usage = usage;
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }

  delta(delta: Record<string, unknown>, finishReason: string | null = null, index = 0, logprobs: unknown = null): string {
    return this.#data([{ index, delta, logprobs, finish_reason: finishReason }], null);
  }

  /** Choices stream one after the other (the real API interleaves them; clients key deltas by index). */
  async write(plans: readonly AnswerPlan[]): Promise<void> {
    const s = this.#stream;
    for (const [index, plan] of plans.entries()) {
      if (plan.toolCalls.length > 0) {
        for (const [k, call] of plan.toolCalls.entries()) {
          const head = { index: k, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
          const opening = k === 0 ? { role: 'assistant', content: null, tool_calls: [head], refusal: null } : { tool_calls: [head] };
          if (!(await s.frame(this.delta(opening, null, index)))) return;
          for (const piece of argumentPieces(call.arguments)) {
            if (!(await s.token(this.delta({ tool_calls: [{ index: k, function: { arguments: piece } }] }, null, index)))) return;
          }
        }
      } else {
        if (!(await s.frame(this.delta({ role: 'assistant', content: '', refusal: null }, null, index)))) return;
        for (const token of answerTokens(plan)) {
          const lp = this.#chat.logprobs ? { content: tokenLogprobs([token], this.#chat.topLogprobs ?? 0), refusal: null } : null;
          if (!(await s.token(this.delta({ content: token }, null, index, lp)))) return;
        }
      }
      if (!(await s.frame(this.delta({}, plan.finishReason, index)))) return;
    }
    if (this.#chat.includeUsage && !(await s.frame(this.#data([], choicesUsage(plans))))) return;
    if (!(await s.frame('data: [DONE]\n\n'))) return;
    s.end();
  }
}

async function respond(request: SimRequest, chat: ChatRequest, started: number): Promise<void> {
  const plans = Array.from({ length: chat.n ?? 1 }, (_, i) => planAnswer(chat, request.controls, i));
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
    await new ChunkWriter(stream, envelope, chat).write(plans);
    return;
  }
  // A non-stream answer arrives when the whole generation would have finished.
  const tokens = plans.reduce((sum, p) => sum + p.completionTokens, 0);
  if (!(await sleep(request.config.msPerToken * tokens, request.signal))) return;
  sendJson(request.res, { status: 200, headers: responseHeaders(started), body: completionObject(envelope, plans, chat) }, request.cut);
}

export async function handleChatCompletions(request: SimRequest): Promise<void> {
  const started = Date.now();
  const refusal = checkBearer(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseChatRequest(request.json, request.body);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  await respond(request, parsed.request, started);
}
