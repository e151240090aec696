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

function usage(plan: AnswerPlan): Json {
  return { prompt_tokens: plan.promptTokens, completion_tokens: plan.completionTokens, total_tokens: plan.promptTokens + plan.completionTokens };
}

function toolCalls(plan: AnswerPlan): Json[] | null {
  if (!plan.toolCall) return null;
  const { id, name, arguments: args } = plan.toolCall;
  return [{ id: stableId(id, 9), type: 'function', function: { name, arguments: args }, index: 0 }];
}

function completion(env: Envelope, plan: AnswerPlan): Json {
  const message = { role: 'assistant', content: plan.toolCall ? '' : plan.words.join(' '), tool_calls: toolCalls(plan), prefix: false };
  return { ...env, object: 'chat.completion', usage: usage(plan), choices: [{ index: 0, message, finish_reason: plan.finishReason }] };
}

async function writeStream(request: SimRequest, env: Envelope, plan: AnswerPlan): Promise<void> {
  const stream = new PacedStream(request, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const chunk = (delta: Json, finish: string | null = null, last = false): string => {
    const body: Json = { ...env, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
    if (last) body.usage = usage(plan);
    return `data: ${JSON.stringify(body)}\n\n`;
  };
  if (!(await stream.frame(chunk({ role: 'assistant', content: '' })))) return;
  const calls = toolCalls(plan);
  if (calls) {
    if (!(await stream.token(chunk({ tool_calls: calls })))) return;
  } else {
    for (const [i, word] of plan.words.entries()) {
      if (!(await stream.token(chunk({ content: i === 0 ? word : ` ${word}` })))) return;
    }
  }
  if (!(await stream.frame(chunk({ content: '' }, plan.finishReason, true)))) return;
  if (!(await stream.frame('data: [DONE]\n\n'))) return;
  stream.end();
}

export async function handleMistralChat(request: SimRequest): Promise<void> {
  const refusal = checkMistralKey(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseMistralRequest(request.json);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const plan = planAnswer(parsed.request, request.controls);
  const env: Envelope = { id: randomBytes(16).toString('hex'), created: Math.floor(Date.now() / 1000), model: parsed.request.model };
  if (parsed.request.stream) return writeStream(request, env, plan);
  if (!(await sleep(request.config.msPerToken * plan.completionTokens, request.signal))) return;
  sendJson(request.res, { status: 200, body: completion(env, plan) }, request.cut);
}
