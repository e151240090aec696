/**
 * POST /v1/moderations: OpenAI's moderation object, `{ id, model, results[] }`, one result per input with
 * `flagged`, `categories` (name -> boolean) and `category_scores` (name -> number) over OpenAI's 13 category
 * names. The verdict is deterministic and asked for in the text itself: `sim-flag:<category>` (for example
 * `sim-flag:violence/graphic`) scores that category 0.98 and flags it; every other category scores 0.0004.
 * Latency and faults come from the server (`x-sim-first-byte-ms`, `x-sim-fault`), like every route.
 */
import { randomBytes } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import { isRecord, sendJson } from '../http.js';
import { checkBearer, openaiError } from './errors.js';

export const OPENAI_MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

const FLAG = /sim-flag:([a-z/-]+)/g;

function resultFor(text: string): Record<string, unknown> {
  const asked = new Set([...text.matchAll(FLAG)].map((m) => m[1]));
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  for (const c of OPENAI_MODERATION_CATEGORIES) {
    categories[c] = asked.has(c);
    scores[c] = asked.has(c) ? 0.98 : 0.0004;
  }
  return { flagged: asked.size > 0, categories, category_scores: scores };
}

export async function handleModerations(request: SimRequest): Promise<void> {
  const authError = checkBearer(request);
  if (authError) return sendJson(request.res, authError);
  const body = request.json;
  const input = isRecord(body) ? body.input : undefined;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? (input as string[]) : null;
  if (texts === null || texts.length === 0) {
    return sendJson(request.res, openaiError(400, "Invalid value for 'input': expected a string or an array of strings.", 'invalid_request_error', 'input'));
  }
  const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'omni-moderation-latest';
  sendJson(request.res, {
    status: 200,
    headers: { 'x-request-id': `req_${randomBytes(16).toString('hex')}` },
    body: { id: `modr-${randomBytes(12).toString('hex')}`, model, results: texts.map(resultFor) },
  });
}
