/**
 * POST /v1/messages and POST /v1/messages/count_tokens. A non-stream call returns the Message object; a
 * stream sends the real event family: message_start, then per block content_block_start / ping (after the
 * first) / content_block_delta (thinking_delta + signature_delta, text_delta, input_json_delta) /
 * content_block_stop, then message_delta (stop_reason, cumulative usage) and message_stop.
 */
import type { SimRequest } from '../dialect.js';
import { sendJson, sleep } from '../http.js';
import { PacedStream } from '../stream.js';
import { countInputTokens, planMessage, type MessagePlan } from './answer.js';
import { checkHeaders, requestId } from './errors.js';
import { parseMessagesRequest } from './request.js';

function content(plan: MessagePlan): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (plan.thinking) blocks.push({ type: 'thinking', thinking: plan.thinking.words.join(' '), signature: plan.thinking.signature });
  for (const use of plan.toolUses) blocks.push({ type: 'tool_use', id: use.id, name: use.name, input: JSON.parse(use.input) as unknown });
  if (plan.toolUses.length === 0) blocks.push({ type: 'text', text: plan.words.join(' '), citations: null });
  return blocks;
}

function usageObject(plan: MessagePlan, outputTokens: number): Record<string, unknown> {
  const { output_tokens_details: details, ...usage } = plan.usage;
  return {
    ...usage,
    output_tokens: outputTokens,
    ...(details && outputTokens === plan.usage.output_tokens ? { output_tokens_details: details } : {}),
    cache_creation: { ephemeral_5m_input_tokens: plan.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
    service_tier: 'standard',
  };
}

function message(plan: MessagePlan, model: string, done: boolean): Record<string, unknown> {
  return {
    id: plan.id,
    type: 'message',
    role: 'assistant',
    model,
    content: done ? content(plan) : [],
    stop_reason: done ? plan.stopReason : null,
    stop_sequence: done ? plan.stopSequence : null,
    // A stream's message_start reports output_tokens 1 (the first token), as the real API does.
    usage: usageObject(plan, done ? plan.usage.output_tokens : 1),
  };
}

const sse = (data: Record<string, unknown>): string => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

/** Tool input JSON in a few short pieces, as the real stream sends it. */
function pieces(json: string): string[] {
  return json.match(/[{}":,]+|[^{}":,]+/g) ?? [json];
}

async function writeStream(s: PacedStream, plan: MessagePlan, model: string): Promise<void> {
  if (!(await s.frame(sse({ type: 'message_start', message: message(plan, model, false) })))) return;
  let index = 0;
  const block = async (start: Record<string, unknown>, deltas: Record<string, unknown>[]): Promise<boolean> => {
    if (!(await s.frame(sse({ type: 'content_block_start', index, content_block: start })))) return false;
    if (index === 0 && !(await s.frame(sse({ type: 'ping' })))) return false;
    for (const delta of deltas) {
      const write = delta.type === 'signature_delta' ? s.frame.bind(s) : s.token.bind(s);
      if (!(await write(sse({ type: 'content_block_delta', index, delta })))) return false;
    }
    if (!(await s.frame(sse({ type: 'content_block_stop', index: index++ })))) return false;
    return true;
  };
  const spaced = (w: string[]): string[] => w.map((word, i) => (i === 0 ? word : ` ${word}`));
  if (plan.thinking) {
    const deltas = spaced(plan.thinking.words).map((thinking): Record<string, unknown> => ({ type: 'thinking_delta', thinking }));
    deltas.push({ type: 'signature_delta', signature: plan.thinking.signature });
    if (!(await block({ type: 'thinking', thinking: '', signature: '' }, deltas))) return;
  }
  if (plan.toolUses.length > 0) {
    for (const { id, name, input } of plan.toolUses) {
      const deltas = pieces(input).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
      if (!(await block({ type: 'tool_use', id, name, input: {} }, deltas))) return;
    }
  } else {
    const deltas = spaced(plan.words).map((text) => ({ type: 'text_delta', text }));
    if (!(await block({ type: 'text', text: '', citations: null }, deltas))) return;
  }
  const delta = { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence };
  if (!(await s.frame(sse({ type: 'message_delta', delta, usage: usageObject(plan, plan.usage.output_tokens) })))) return;
  if (!(await s.frame(sse({ type: 'message_stop' })))) return;
  s.end();
}

export async function handleMessages(request: SimRequest): Promise<void> {
  const refusal = checkHeaders(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseMessagesRequest(request.body.length === 0 ? undefined : request.json);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  const req = parsed.request;
  const plan = planMessage(req, request.controls);
  const headers = { 'request-id': requestId(), 'anthropic-organization-id': 'org-sim' };
  if (req.stream) {
    const stream = new PacedStream(request, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    await writeStream(stream, plan, req.model);
    return;
  }
  if (!(await sleep(request.config.msPerToken * plan.usage.output_tokens, request.signal))) return;
  sendJson(request.res, { status: 200, headers, body: message(plan, req.model, true) }, request.cut);
}

export async function handleCountTokens(request: SimRequest): Promise<void> {
  const refusal = checkHeaders(request);
  if (refusal) return sendJson(request.res, refusal);
  const parsed = parseMessagesRequest(request.body.length === 0 ? undefined : request.json, true);
  if (!parsed.ok) return sendJson(request.res, parsed.error);
  sendJson(request.res, { status: 200, headers: { 'request-id': requestId() }, body: { input_tokens: countInputTokens(parsed.request) } }, request.cut);
}
