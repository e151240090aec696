/**
 * The fault engine's vocabulary: which faults exist, how a request asks for one (`x-sim-fault`), and the
 * other per-request `x-sim-*` controls. Provider-neutral: a dialect only renders the status faults in its
 * own error body (see `Dialect.faultError`).
 */
import type { IncomingHttpHeaders } from 'node:http';

export const FAULT_KINDS = [
  '400',
  '401',
  '429',
  '500',
  '503',
  '529',
  'reset',
  'slow-first-byte',
  'hang',
  'midstream-reset',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Faults answered with an HTTP error status and the provider's error body. */
export type StatusFault = '400' | '401' | '429' | '500' | '503' | '529';

/** `slow-first-byte` waits this long when neither the endpoint nor the request sets a first-byte delay. */
export const SLOW_FIRST_BYTE_DEFAULT_MS = 5000;

/** How many frames a `midstream-reset` stream sends before the socket is destroyed. */
export const MIDSTREAM_RESET_AFTER_FRAMES = 3;

/** Request header names, lower case as node:http exposes them. */
export const SIM_HEADERS = Object.freeze({
  fault: 'x-sim-fault',
  firstByteMs: 'x-sim-first-byte-ms',
  msPerToken: 'x-sim-ms-per-token',
  cachedTokens: 'x-sim-cached-tokens',
  reasoningTokens: 'x-sim-reasoning-tokens',
  outputTokens: 'x-sim-output-tokens',
  /** Provider prompt-cache reads and writes (Anthropic, Bedrock); reads default to x-sim-cached-tokens. */
  cacheReadTokens: 'x-sim-cache-read-tokens',
  cacheWriteTokens: 'x-sim-cache-write-tokens',
});

export function parseFault(value: unknown): FaultKind | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return FAULT_KINDS.find((kind) => kind === text);
}

export function isStatusFault(kind: FaultKind | null): kind is StatusFault {
  return kind !== null && /^\d{3}$/.test(kind);
}

/** Controls a request may carry in `x-sim-*` headers; they override the endpoint config for that request. */
export interface RequestControls {
  fault?: FaultKind;
  firstByteMs?: number;
  msPerToken?: number;
  /** Reported as `prompt_tokens_details.cached_tokens` (capped at the prompt tokens). */
  cachedTokens: number;
  /** Reported as reasoning tokens; they count in completion tokens and in the max_tokens budget. */
  reasoningTokens: number;
  /** Natural answer length in words (tokens) instead of the hash-selected sentences. */
  outputTokens: number | null;
  /** Prompt-cache reads and writes reported by dialects that price them (capped at the prompt). */
  cache: { read: number; write: number };
}

export type ControlsResult = { ok: true; controls: RequestControls } | { ok: false; message: string };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function count(headers: IncomingHttpHeaders, name: string): number | undefined | string {
  const raw = header(headers, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : `${name} must be a non-negative integer, got '${raw}'`;
}

export function readControls(headers: IncomingHttpHeaders): ControlsResult {
  const rawFault = header(headers, SIM_HEADERS.fault);
  const fault = rawFault === undefined ? undefined : parseFault(rawFault.trim());
  if (rawFault !== undefined && fault === undefined) {
    return { ok: false, message: `unknown ${SIM_HEADERS.fault} '${rawFault}' (one of ${FAULT_KINDS.join(', ')})` };
  }
  const numbers = {
    firstByteMs: count(headers, SIM_HEADERS.firstByteMs),
    msPerToken: count(headers, SIM_HEADERS.msPerToken),
    cachedTokens: count(headers, SIM_HEADERS.cachedTokens),
    reasoningTokens: count(headers, SIM_HEADERS.reasoningTokens),
    outputTokens: count(headers, SIM_HEADERS.outputTokens),
    cacheReadTokens: count(headers, SIM_HEADERS.cacheReadTokens),
    cacheWriteTokens: count(headers, SIM_HEADERS.cacheWriteTokens),
  };
  for (const value of Object.values(numbers)) {
    if (typeof value === 'string') return { ok: false, message: value };
  }
  const n = (v: number | undefined | string): number | undefined => (typeof v === 'number' ? v : undefined);
  const cachedTokens = n(numbers.cachedTokens) ?? 0;
  const controls: RequestControls = {
    cachedTokens,
    cache: { read: n(numbers.cacheReadTokens) ?? cachedTokens, write: n(numbers.cacheWriteTokens) ?? 0 },
    reasoningTokens: n(numbers.reasoningTokens) ?? 0,
    outputTokens: n(numbers.outputTokens) ?? null,
  };
  if (fault !== undefined) controls.fault = fault;
  const firstByteMs = n(numbers.firstByteMs);
  if (firstByteMs !== undefined) controls.firstByteMs = firstByteMs;
  const msPerToken = n(numbers.msPerToken);
  if (msPerToken !== undefined) controls.msPerToken = msPerToken;
  return { ok: true, controls };
}

/** Delay before the response headers: the configured first-byte delay, or the slow default for the fault. */
export function firstByteDelay(fault: FaultKind | null, firstByteMs: number): number {
  if (fault === 'slow-first-byte' && firstByteMs <= 0) return SLOW_FIRST_BYTE_DEFAULT_MS;
  return firstByteMs;
}
