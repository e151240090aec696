/**
 * `GenerateContentResponse` -> CanonicalResponse (Gemini API reference, "GenerateContentResponse"; Vertex
 * AI returns the same shape). First candidate only. Thought parts (`thought: true`) become thinking
 * blocks; a `thoughtSignature` on any other part becomes an empty thinking block carrying the signature
 * right before it, so a client that echoes thinking blocks gives Gemini its signature back (request.ts).
 * Gemini has no tool-call ids: ids are derived from the response id (or a functionCall's own `id`).
 */
import { randomBytes } from 'node:crypto';
import { ZERO_USAGE } from '../../billing/price.js';
import type { CanonicalResponse, StopReason, TextPart, ThinkingPart, ToolCallPart } from '../../canonical/types.js';
import { arr, isRec, parseUpstreamJson, rec, str } from '../openai/wire.js';
import { fromGeminiUsage } from './usage.js';

export type GeminiPiece =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature: string | undefined }
  /** A signature Gemini attached to the non-thought part that follows. */
  | { kind: 'signature'; signature: string }
  | { kind: 'call'; id: string | undefined; name: string; args: string };

/** The parts of a candidate's content, in order. Executable code, images and other output kinds are skipped. */
export function geminiPieces(parts: unknown): GeminiPiece[] {
  const out: GeminiPiece[] = [];
  for (const raw of arr(parts)) {
    const p = rec(raw);
    const signature = str(p.thoughtSignature);
    if (p.thought === true) {
      out.push({ kind: 'thinking', text: str(p.text) ?? '', signature });
      continue;
    }
    if (signature) out.push({ kind: 'signature', signature });
    if (typeof p.text === 'string') out.push({ kind: 'text', text: p.text });
    else if (isRec(p.functionCall)) {
      const fc = p.functionCall;
      out.push({ kind: 'call', id: str(fc.id), name: str(fc.name) ?? '', args: JSON.stringify(fc.args ?? {}) });
    }
  }
  return out;
}

const FINISH: Readonly<Record<string, StopReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
};

/** Gemini finishes a function call with STOP: the canonical reason is then tool_calls. */
export function geminiStopReason(reason: unknown, calledTools: boolean): StopReason {
  const mapped = (typeof reason === 'string' && FINISH[reason]) || 'stop';
  return mapped === 'stop' && calledTools ? 'tool_calls' : mapped;
}

/** A response blocked before any candidate (`promptFeedback.blockReason`) is a content filter stop. */
export function promptBlocked(json: Record<string, unknown>): boolean {
  return arr(json.candidates).length === 0 && typeof rec(json.promptFeedback).blockReason === 'string';
}

/** The first candidate (`index` 0, or absent as the API omits a zero); other candidates are not read. */
export function firstCandidate(json: Record<string, unknown>): Record<string, unknown> {
  return rec(arr(json.candidates).find((c) => (rec(c).index ?? 0) === 0));
}

export function toolCallId(responseId: string, n: number): string {
  return `call_${responseId || randomBytes(9).toString('base64url')}_${n}`;
}

function createdOf(json: Record<string, unknown>): number {
  const t = Date.parse(str(json.createTime) ?? '');
  return Math.floor((Number.isFinite(t) ? t : Date.now()) / 1000);
}

export function fromGeminiResponse(body: Buffer | string, provider: string): CanonicalResponse {
  const json = parseUpstreamJson(body, provider);
  const id = str(json.responseId) ?? '';
  const candidate = firstCandidate(json);
  const content: (TextPart | ThinkingPart | ToolCallPart)[] = [];
  let calls = 0;
  for (const piece of geminiPieces(rec(candidate.content).parts)) {
    const last = content.at(-1);
    if (piece.kind === 'text') {
      if (last?.type === 'text') last.text += piece.text;
      else content.push({ type: 'text', text: piece.text });
    } else if (piece.kind === 'thinking') {
      const part: ThinkingPart = { type: 'thinking', text: piece.text };
      if (piece.signature) part.signature = piece.signature;
      content.push(part);
    } else if (piece.kind === 'signature') {
      content.push({ type: 'thinking', text: '', signature: piece.signature });
    } else {
      content.push({ type: 'tool_call', id: piece.id ?? toolCallId(id, calls), name: piece.name, arguments: piece.args });
      calls++;
    }
  }
  const usage = isRec(json.usageMetadata) ? fromGeminiUsage(json.usageMetadata) : { ...ZERO_USAGE };
  return {
    id,
    upstreamModel: str(json.modelVersion) ?? '',
    created: createdOf(json),
    content,
    stopReason: promptBlocked(json) ? 'content_filter' : geminiStopReason(candidate.finishReason, calls > 0),
    stopSequence: null,
    usage,
  };
}
