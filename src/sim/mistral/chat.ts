/**
 * POST {prefix}/mistral/v1/chat/completions. The shared plan rendered in Mistral's shape: usage is only
 * `{prompt_tokens, completion_tokens, total_tokens}`, tool calls carry 9-character ids and come whole in
 * one stream chunk (arguments are not streamed in pieces), and the stream's last chunk carries both the
 * finish_reason and the usage (there is no stream_options), then `data: [DONE]`.
 */
import { randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import { sendJson, sleep } from '../http.js';
import type { AnswerPlan } from '../openai/answer.js';
import { planAnswer } from '../openai/index.js';
import { PacedStream } from '../stream.js';
import { stableId } from '../text.js';
import { checkMistralKey } from './errors.js';
import { parseMistralRequest } from './request.js';

type Json = Record<string, unknown>;

interface Envelope {
  id: string;
  created: number;
  model: string;
}

/** One prompt, every choice's completion tokens. */
function usage(plans: readonly AnswerPlan[]): Json {
  const prompt = plans[0]!.promptTokens;
  const completion = plans.reduce((sum, p) => sum + p.completionTokens, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function toolCalls(plan: AnswerPlan): Json[] | null {
  if (plan.toolCalls.length === 0) return null;
  return plan.toolCalls.map(({ id, name, arguments: args }, index) => ({ id: stableId(id, 9), type: 'function', function: { name, arguments: args }, index }));
}

function completion(env: Envelope, plans: readonly AnswerPlan[]): Json {
  const choices = plans.map((plan, index) => ({
    index,
    message: { role: 'assistant', content: plan.toolCall ? '' : plan.words.join(' '), tool_calls: toolCalls(plan), prefix: false },
    finish_reason: plan.finishReason,
  }));
  return { ...env, object: 'chat.completion', usage: usage(plans), choices };
}

async function writeStream(request: SimRequest, env: Envelope, plans: readonly AnswerPlan[]): Promise<void> {
  const stream = new PacedStream(request, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const chunk = (index: number, delta: Json, finish: string | null = null, last = false): string => {
    const body: Json = { ...env, object: 'chat.completion.chunk', choices: [{ index, delta, finish_reason: finish }] };
    if (last) body.usage = usage(plans);
    return `data: ${JSON.stringify(body)}\n\n`;
  };
  for (const [index, plan] of plans.entries()) {
    if (!(await stream.frame(chunk(index, { role: 'assistant', content: '' })))) return;
    const calls = toolCalls(plan);
    if (calls) {
      if (!(await stream.token(chunk(index, { tool_calls: calls })))) return;
    } else {
      for (const [i, word] of plan.words.entries()) {
        if (!(await stream.token(chunk(index, { content: i === 0 ? word : ` ${word}` })))) return;
      }
    }
    if (!(await stream.frame(chunk(index, { content: '' }, plan.finishReason, index === plans.length - 1)))) return;
  }
  if (!(await stream.frame('data: [DONE]\n\n'))) return;
  stream.end();
}

export async function handleMistralChat(request: SimRequest): Promise<void> {
  const refusal = checkMistralKey(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseMistralRequest(request.json);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const plans = Array.from({ length: parsed.request.n ?? 1 }, (_, i) => planAnswer(parsed.request, request.controls, i));
  const env: Envelope = { id: randomBytes(16).toString('hex'), created: Math.floor(Date.now() / 1000), model: parsed.request.model };
  if (parsed.request.stream) return writeStream(request, env, plans);
  const tokens = plans.reduce((sum, p) => sum + p.completionTokens, 0);
  if (!(await sleep(request.config.msPerToken * tokens, request.signal))) return;
  sendJson(request.res, { status: 200, body: completion(env, plans) }, request.cut);
}
