import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { JsonRecord } from './json-body.js';

/** Per-request control fields (contract: "Per-request control fields"), read and removed before forwarding. */
export interface ControlFields {
  fallbacks: string[] | null;
  guardrails: string[] | null;
  /** false skips the response cache both ways. */
  cache: boolean;
  promptTemplateId: string | null;
  promptVariables: Record<string, string> | null;
  /** Set when legacy_guardrail_ids was used (replaces org defaults, never the platform floor). */
  guardrailsReplace: boolean;
}

type Shape = 'chat' | 'completions' | 'responses' | 'messages';

const SVC_FIELDS: Record<Shape, readonly string[]> = {
  chat: ['svc_fallbacks', 'svc_guardrails', 'svc_cache', 'svc_prompt_template_id', 'svc_prompt_variables'],
  completions: ['svc_cache', 'svc_prompt_template_id', 'svc_prompt_variables'],
  responses: ['svc_fallbacks', 'svc_guardrails', 'svc_cache'],
  messages: ['svc_fallbacks', 'svc_guardrails', 'svc_cache'],
};
const LEGACY_FIELDS = ['legacy_guardrail_ids', 'legacy_cache', 'legacy_prompt_template_id', 'legacy_prompt_variables'];

function stringList(v: unknown, field: string, min: number, max: number, code: 'invalid_request'): string[] {
  if (!Array.isArray(v) || v.length < min || v.length > max || !v.every((x) => typeof x === 'string' && x !== '')) {
    throw new GatewayError(code, { message: `${field} must be an array of ${min} to ${max} non-empty strings.`, param: field });
  }
  return v as string[];
}

/**
 * Reads and deletes every svc_* / legacy_* key of `body` (mutates it). Unknown svc_* keys are 400 with no
 * error.code (ARCHITECTURE decision 5); svc_fallbacks on a shape that accepts none is fallback_not_allowed.
 * `touched` tells the caller whether the body changed (the byte fast path then cannot forward the original).
 */
export function takeControlFields(body: JsonRecord, shape: Shape): { fields: ControlFields; touched: boolean } {
  const fields: ControlFields = {
    fallbacks: null,
    guardrails: null,
    cache: true,
    promptTemplateId: null,
    promptVariables: null,
    guardrailsReplace: false,
  };
  let touched = false;
  for (const k of Object.keys(body)) {
    const isSvc = k.startsWith('svc_');
    if (!isSvc && !k.startsWith('legacy_')) continue;
    touched = true;
    const v = body[k];
    delete body[k];
    if (isSvc && !SVC_FIELDS[shape].includes(k)) {
      if (k === 'svc_fallbacks') {
        throw new GatewayError('fallback_not_allowed', { message: 'This endpoint accepts no svc_fallbacks.' });
      }
      throw new GatewayError('unknown_control_field', { message: `Unknown control field: ${k}` });
    }
    if (!isSvc && !LEGACY_FIELDS.includes(k)) throw new GatewayError('unknown_control_field', { message: `Unknown field: ${k}` });
    switch (k) {
      case 'svc_fallbacks':
        fields.fallbacks = stringList(v, k, 1, 4, 'invalid_request');
        break;
      case 'svc_guardrails':
        fields.guardrails = stringList(v, k, 1, 8, 'invalid_request');
        break;
      case 'legacy_guardrail_ids':
        fields.guardrails = stringList(v, k, 1, 8, 'invalid_request');
        fields.guardrailsReplace = true;
        break;
      case 'svc_cache':
      case 'legacy_cache':
        if (typeof v !== 'boolean') throw invalid(`${k} must be a boolean.`, k);
        fields.cache = v;
        break;
      case 'svc_prompt_template_id':
      case 'legacy_prompt_template_id':
        if (typeof v !== 'string' || v === '') throw invalid(`${k} must be a non-empty string.`, k);
        fields.promptTemplateId = v;
        break;
      case 'svc_prompt_variables':
      case 'legacy_prompt_variables':
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`${k} must be an object.`, k);
        fields.promptVariables = Object.fromEntries(Object.entries(v).map(([a, b]) => [a, String(b)]));
        break;
    }
  }
  return { fields, touched };
}

/**
 * Control fields that name tenant resources. Organization guardrails and managed prompt templates have no
 * API yet (later issues), so no organization owns any: every reference is refused rather than silently
 * ignored. `guardrail_not_found` has one body for unknown and foreign ids alike (no enumeration).
 */
export function checkControlReferences(fields: ControlFields): void {
  if (fields.guardrails !== null) {
    throw new GatewayError('guardrail_not_found', { message: 'Guardrail not found.' });
  }
  if (fields.promptTemplateId !== null) {
    throw invalid('Prompt template not found.', 'svc_prompt_template_id');
  }
}

/**
 * `x-svc-compress: on|off` (anything else is 400) -> the `x-svc-compression` verdict. Prompt compression is
 * a later feature: a request that asks for it is reported `skipped` (entitled, did not run), an opt-out
 * (header or a never-compress key) `off`, and a request that says nothing gets no header.
 */
export function compressionVerdict(header: string | undefined, neverCompress: boolean): 'off' | 'skipped' | null {
  if (header !== undefined && header !== 'on' && header !== 'off') {
    throw invalid('x-svc-compress must be on or off.', 'x-svc-compress');
  }
  if (neverCompress || header === 'off') return 'off';
  return header === 'on' ? 'skipped' : null;
}

/** Strips `svc_compress` from one object (a message, item or content block); true when it was there. */
function stripCompress(o: unknown, path: string): boolean {
  if (typeof o !== 'object' || o === null || Array.isArray(o) || !('svc_compress' in o)) return false;
  const rec = o as Record<string, unknown>;
  if (typeof rec.svc_compress !== 'boolean') throw invalid(`${path}.svc_compress must be a boolean.`, `${path}.svc_compress`);
  delete rec.svc_compress;
  return true;
}

/**
 * The per-message control field `svc_compress` (contract: "a per-message field, not request-level"): read
 * and removed from messages / input items / system blocks and their content blocks before anything is
 * forwarded. Prompt compression itself is a later feature, so the value only has to be valid. Returns
 * whether the body changed (the passthrough then cannot forward the original bytes).
 */
export function takeMessageControls(body: JsonRecord): boolean {
  let touched = false;
  for (const field of ['messages', 'input', 'system']) {
    const list = body[field];
    if (!Array.isArray(list)) continue;
    list.forEach((m: unknown, i) => {
      const path = `${field}[${i}]`;
      if (stripCompress(m, path)) touched = true;
      const content = typeof m === 'object' && m !== null ? (m as Record<string, unknown>).content : undefined;
      if (Array.isArray(content)) content.forEach((b: unknown, j) => (touched = stripCompress(b, `${path}.content[${j}]`) || touched));
    });
  }
  return touched;
}
