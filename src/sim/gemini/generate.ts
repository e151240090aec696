/**
 * POST {prefix}/v1beta/models/{model}:generateContent and :streamGenerateContent (Gemini API), and the
 * Vertex AI publisher paths. Answers a `GenerateContentResponse`; the stream with `?alt=sse` is one
 * `data: {GenerateContentResponse}` event per word, CRLF-framed like Google's front end, the last event
 * carrying finishReason and the final usageMetadata; without `alt=sse` it is a streamed JSON array.
 * Usage: promptTokenCount includes cachedContentTokenCount; thoughtsTokenCount is outside
 * candidatesTokenCount; totalTokenCount is their sum.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import { sendJson, sleep } from '../http.js';
import type { AnswerPlan } from '../openai/answer.js';
import { planAnswer } from '../openai/index.js';
import { PacedStream } from '../stream.js';
import { checkApiKey, checkVertexAuth, isVertexPath, modelNotFound } from './errors.js';
import { parseGeminiRequest, type GeminiRequest } from './request.js';

type Json = Record<string, unknown>;

/** Model ids the simulated Google API serves; anything else is NOT_FOUND, as at Google. */
const KNOWN_MODEL = /^(gemini|gemma|learnlm)-[a-z0-9.-]+$/;

const THOUGHT_SUMMARY = 'I weighed the request before answering.';

interface Envelope {
  modelVersion: string;
  responseId: string;
  createTime?: string;
}

function usageMetadata(plan: AnswerPlan, final: boolean): Json {
  const prompt = plan.promptTokens;
  const details = [{ modality: 'TEXT', tokenCount: prompt }];
  if (!final) return { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: details };
  const u: Json = {
    promptTokenCount: prompt,
    candidatesTokenCount: plan.completionTokens - plan.reasoningTokens,
    totalTokenCount: prompt + plan.completionTokens,
    promptTokensDetails: details,
  };
  if (plan.cachedTokens > 0) {
    u.cachedContentTokenCount = plan.cachedTokens;
    u.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: plan.cachedTokens }];
  }
  if (plan.reasoningTokens > 0) u.thoughtsTokenCount = plan.reasoningTokens;
  return u;
}

/** A stable opaque signature: thinking models sign the first part after they thought. */
function signature(env: Envelope): string {
  return createHash('sha256').update(`sig:${env.responseId}`).digest('base64');
}

/** The model's parts: an optional thought summary, then the words (or the function call). */
function answerParts(plan: AnswerPlan, g: GeminiRequest, env: Envelope): { thought: Json | null; parts: Json[] } {
  const thinking = plan.reasoningTokens > 0;
  const thought = thinking && g.includeThoughts ? { text: THOUGHT_SUMMARY, thought: true } : null;
  const parts: Json[] = plan.toolCall
    ? plan.toolCalls.map((call) => ({ functionCall: { name: call.name, args: JSON.parse(call.arguments) as unknown } }))
    : [{ text: plan.words.join(' ') }];
  const first = parts[0];
  if (thinking && first) first.thoughtSignature = signature(env);
  return { thought, parts };
}

function finishReason(plan: AnswerPlan): string {
  return plan.finishReason === 'length' ? 'MAX_TOKENS' : 'STOP';
}

function responseObject(env: Envelope, parts: Json[], plan: AnswerPlan, final: boolean): Json {
  const candidate: Json = { content: { parts, role: 'model' }, index: 0 };
  if (final) candidate.finishReason = finishReason(plan);
  return { candidates: [candidate], usageMetadata: usageMetadata(plan, final), ...env };
}

/** The stream's events: thought, then one word each (first word bare, later ones with their space). */
function streamEvents(plan: AnswerPlan, g: GeminiRequest, env: Envelope): Json[] {
  const { thought, parts } = answerParts(plan, g, env);
  const events: Json[] = thought ? [responseObject(env, [thought], plan, false)] : [];
  if (plan.toolCall || plan.words.length <= 1) {
    events.push(responseObject(env, parts, plan, true));
    return events;
  }
  const sig = parts[0]?.thoughtSignature;
  plan.words.forEach((word, i) => {
    const part: Json = { text: i === 0 ? word : ` ${word}` };
    if (i === 0 && sig !== undefined) part.thoughtSignature = sig;
    events.push(responseObject(env, [part], plan, i === plan.words.length - 1));
  });
  return events;
}

async function writeStream(request: SimRequest, events: Json[], sse: boolean): Promise<void> {
  const stream = new PacedStream(request, {
    'content-type': sse ? 'text/event-stream' : 'application/json; charset=UTF-8',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  for (const [i, event] of events.entries()) {
    const json = JSON.stringify(event);
    const frame = sse ? `data: ${json}\r\n\r\n` : `${i === 0 ? '[' : ',\r\n'}${json}${i === events.length - 1 ? ']' : ''}`;
    const ok = i === 0 ? await stream.frame(frame) : await stream.token(frame);
    if (!ok) return;
  }
  stream.end();
}

export async function handleGenerate(request: SimRequest): Promise<void> {
  const { model = '', method = 'generateContent', version = 'v1beta', project } = request.params;
  const vertex = isVertexPath(request);
  const refusal = vertex ? checkVertexAuth(request, project === undefined) : checkApiKey(request);
  if (refusal) return sendJson(request.res, refusal);
  if (!KNOWN_MODEL.test(model)) return sendJson(request.res, modelNotFound(request, model, version));
  const stream = method === 'streamGenerateContent';
  const parsed = parseGeminiRequest(request.json, model, stream);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const plan = planAnswer(parsed.request.chat, request.controls);
  const env: Envelope = { modelVersion: model, responseId: randomBytes(12).toString('base64url') };
  if (vertex) env.createTime = new Date().toISOString();
  if (stream) {
    const sse = new URL(request.req.url ?? '/', 'http://sim.invalid').searchParams.get('alt') === 'sse';
    return writeStream(request, streamEvents(plan, parsed.request, env), sse);
  }
  if (!(await sleep(request.config.msPerToken * plan.completionTokens, request.signal))) return;
  const { thought, parts } = answerParts(plan, parsed.request, env);
  const body = responseObject(env, thought ? [thought, ...parts] : parts, plan, true);
  sendJson(request.res, { status: 200, body }, request.cut);
}
