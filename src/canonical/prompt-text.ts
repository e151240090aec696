/**
 * What a canonical request puts in front of the model, for inspection (guardrails) and token estimates
 * (credit holds, count_tokens). Usage for billing always comes from the provider, never from here.
 */
import type { CanonicalRequest, ImagePart } from './types.js';

/**
 * Every piece of prompt text in order: system blocks, message text, tool call arguments, tool result text,
 * then each tool's schema as JSON and a json_schema response format's schema. Images are counted apart
 * (`promptImages`); thinking from earlier turns is left out: models do not read it again as input.
 */
export function promptTexts(req: CanonicalRequest): string[] {
  const out: string[] = [];
  for (const s of req.system) out.push(s.text);
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'text') out.push(p.text);
      else if (p.type === 'tool_call') out.push(p.arguments);
      else if (p.type === 'tool_result') for (const c of p.content) if (c.type === 'text') out.push(c.text);
    }
  }
  for (const t of req.tools) {
    out.push(JSON.stringify(t.description === undefined ? { name: t.name, parameters: t.parameters } : { name: t.name, description: t.description, parameters: t.parameters }));
  }
  if (req.responseFormat?.type === 'json_schema') out.push(JSON.stringify(req.responseFormat.schema));
  return out;
}

/**
 * Parallel to promptTexts: true for text the key holder did not write (user turns, tool results), the only
 * text scored for prompt injection; system/developer blocks, assistant turns, tool call arguments and schemas
 * are the key holder's own instructions (moderation still scores every text).
 */
export function promptTextsUntrusted(req: CanonicalRequest): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < req.system.length; i++) out.push(false);
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'text') out.push(m.role !== 'assistant');
      else if (p.type === 'tool_call') out.push(false);
      else if (p.type === 'tool_result') for (const c of p.content) if (c.type === 'text') out.push(true);
    }
  }
  for (let i = 0; i < req.tools.length; i++) out.push(false);
  if (req.responseFormat?.type === 'json_schema') out.push(false);
  return out;
}

/** Every image of the prompt, tool results included. */
export function promptImages(req: CanonicalRequest): ImagePart[] {
  const out: ImagePart[] = [];
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'image') out.push(p);
      else if (p.type === 'tool_result') for (const c of p.content) if (c.type === 'image') out.push(c);
    }
  }
  return out;
}

/**
 * Messages as the model sees them, for the per-message token overhead: one per system block, one per user
 * or assistant turn, and one per tool result (OpenAI-style upstreams send each result as its own message).
 */
export function countMessages(req: CanonicalRequest): number {
  let n = req.system.length;
  for (const m of req.messages) n += m.role === 'tool' ? Math.max(1, m.content.length) : 1;
  return n;
}
