/**
 * POST {prefix}/openai/deployments/{deployment}/chat/completions?api-version=... (Azure OpenAI). The
 * answer is the shared plan rendered with Azure's additions: `prompt_filter_results` and per-choice
 * `content_filter_results`, the model's own name in `model` (not the deployment's), and in streams a first
 * chunk with `choices: []` and empty id/model that only carries the prompt filter results.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import { isRecord, sendJson, sleep } from '../http.js';
import type { AnswerPlan } from '../openai/answer.js';
import { usageOf } from '../openai/answer.js';
import { argumentPieces } from '../openai/chat.js';
import { planAnswer } from '../openai/index.js';
import { parseChatRequest } from '../openai/request.js';
import { PacedStream } from '../stream.js';
import { apiVersionNotSupported, checkAzureKey, resourceNotFound } from './errors.js';

type Json = Record<string, unknown>;

const SAFE = { filtered: false, severity: 'safe' };
const CONTENT_FILTER = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: CONTENT_FILTER }];
const FINGERPRINT = 'fp_azure0001';
const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

interface Envelope {
  id: string;
  created: number;
  model: string;
}

function headers(): Record<string, string> {
  return { 'apim-request-id': randomUUID(), 'x-request-id': randomUUID(), 'x-ms-region': 'Sweden Central' };
}

function message(plan: AnswerPlan): Json {
  const m: Json = { role: 'assistant', content: plan.toolCall ? null : plan.words.join(' '), refusal: null };
  if (plan.toolCalls.length > 0) {
    m.tool_calls = plan.toolCalls.map(({ id, name, arguments: args }) => ({ id, type: 'function', function: { name, arguments: args } }));
  }
  return m;
}

function completion(env: Envelope, plan: AnswerPlan): Json {
  return {
    ...env,
    object: 'chat.completion',
    system_fingerprint: FINGERPRINT,
    prompt_filter_results: PROMPT_FILTER,
    choices: [
      {
        index: 0,
        message: message(plan),
        logprobs: null,
        finish_reason: plan.finishReason,
        content_filter_results: plan.toolCall ? {} : CONTENT_FILTER,
      },
    ],
    usage: usageOf(plan),
  };
}

/** A stream frame; `token` frames carry one generated token and are paced by msPerToken. */
interface Frame {
  data: string;
  token: boolean;
}

function chunks(env: Envelope, plan: AnswerPlan, includeUsage: boolean): Frame[] {
  const data = (body: Json, token = false): Frame => ({ data: `data: ${JSON.stringify(body)}\n\n`, token });
  const chunk = (delta: Json, finish: string | null = null, filter: Json = {}, token = false): Frame => {
    const body: Json = { ...env, object: 'chat.completion.chunk', system_fingerprint: FINGERPRINT };
    body.choices = [{ index: 0, delta, logprobs: null, finish_reason: finish, content_filter_results: filter }];
    if (includeUsage) body.usage = null;
    return data(body, token);
  };
  const out = [data({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER })];
  if (plan.toolCalls.length > 0) {
    for (const [index, { id, name, arguments: args }] of plan.toolCalls.entries()) {
      const head = { index, id, type: 'function', function: { name, arguments: '' } };
      out.push(chunk(index === 0 ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] }));
      for (const piece of argumentPieces(args)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null, {}, true));
    }
  } else {
    out.push(chunk({ role: 'assistant', content: '', refusal: null }));
    plan.words.forEach((word, i) => out.push(chunk({ content: i === 0 ? word : ` ${word}` }, null, CONTENT_FILTER, true)));
  }
  out.push(chunk({}, plan.finishReason));
  if (includeUsage) {
    out.push(data({ ...env, object: 'chat.completion.chunk', system_fingerprint: FINGERPRINT, choices: [], usage: usageOf(plan) }));
  }
  out.push({ data: 'data: [DONE]\n\n', token: false });
  return out;
}

export async function handleAzureChat(request: SimRequest): Promise<void> {
  const version = new URL(request.req.url ?? '/', 'http://sim.invalid').searchParams.get('api-version');
  if (version === null) return sendJson(request.res, resourceNotFound());
  if (!API_VERSION.test(version)) return sendJson(request.res, apiVersionNotSupported());
  const refusal = checkAzureKey(request);
  if (refusal) return sendJson(request.res, refusal);
  const deployment = request.params.deployment ?? '';
  // The deployment names the model; a body `model` is optional and ignored for routing.
  const json = isRecord(request.json) ? { model: deployment, ...request.json } : request.json;
  const parsed = parseChatRequest(json, request.body);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const plan = planAnswer(parsed.request, request.controls);
  const env: Envelope = {
    id: `chatcmpl-${randomBytes(15).toString('base64url')}`,
    created: Math.floor(Date.now() / 1000),
    model: parsed.request.model,
  };
  if (parsed.request.stream) {
    const stream = new PacedStream(request, { ...headers(), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (const frame of chunks(env, plan, parsed.request.includeUsage)) {
      if (!(await (frame.token ? stream.token(frame.data) : stream.frame(frame.data)))) return;
    }
    stream.end();
    return;
  }
  if (!(await sleep(request.config.msPerToken * plan.completionTokens, request.signal))) return;
  sendJson(request.res, { status: 200, headers: headers(), body: completion(env, plan) }, request.cut);
}
